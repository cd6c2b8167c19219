// The play page without a connection (docs/offline.md). It registers the service worker
// (/sw.js, which keeps this page as last synced), says when the page is offline and since
// when, and, while offline, keeps the changes the player makes (wound boxes, points,
// conditions, rolls) in this device's localStorage, shown as not yet sent. When the
// connection returns it sends them, in order, to the play page's offline endpoint, which
// applies or refuses each by the same rules as a click online; the page then reloads and
// says what became of each. From a file: the site's CSP forbids inline script.
"use strict";

(() => {
  const bar = document.getElementById("offline-play");
  if (!bar) return;
  const said = bar.dataset;
  const QUEUE = `fairsheet.offline.${said.character}`; // this character's queued writes
  const ANSWERS = `fairsheet.offline.answers.${said.character}`; // shown after the reload
  const PAGES_CACHE = "fairsheet-play-pages"; // as templates/offline/sw.js keeps them
  const lang = document.documentElement.lang || "en";
  // The points' name in each plural form of the language, by Intl.PluralRules' names.
  const pointsForms = { one: said.pointsOne, other: said.pointsOther, many: said.pointsMany };
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);

  let syncedAt = new Date(said.syncedAt); // the server's state this page shows, as of
  let offline = !navigator.onLine;
  let sending = false;
  let retryAfter = 0; // after a refused batch, the polls do not send it again at once

  // -- the queue ----------------------------------------------------------------------------

  const queue = () => JSON.parse(localStorage.getItem(QUEUE) || "[]");
  const keep = (writes) =>
    writes.length ? localStorage.setItem(QUEUE, JSON.stringify(writes)) : localStorage.removeItem(QUEUE);

  // The revision the page shows, plus the state changes queued since: what the next write
  // is made against (services.offline takes off those it refuses).
  function nextRevision() {
    const shown = Number(document.querySelector("form[data-offline] input[name=revision]")?.value || 0);
    return shown + queue().filter((write) => write.kind !== "roll").length;
  }

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // -- writes made offline, in words and on the page ----------------------------------------

  function woundRow(level) {
    return [...document.querySelectorAll(".harm-track .track-level")].find((row) =>
      row.querySelector(`button[name=box][value$=":${level}"]`),
    );
  }

  function describe(kind, fields) {
    if (kind === "wound") {
      const [what, level] = fields.box.split(":");
      const wound = woundRow(level)?.dataset.wound || level;
      return fill(what === "mark" ? said.saidWoundMark : said.saidWoundClear, { wound });
    }
    if (kind === "points") {
      return fill(fields.action === "spend" ? said.saidSpend : said.saidRegain, { points: said.pointsOther });
    }
    if (kind === "condition_add") return fill(said.saidConditionAdd, { text: fields.text });
    if (kind === "condition_remove") return fill(said.saidConditionRemove, { text: fields.text });
    return fields.said; // a roll: its line, made when it was rolled
  }

  // The page as it will be once the write goes through, marked as not yet sent.
  function show(write) {
    const fields = write.fields;
    if (write.kind === "wound") {
      const [what, level] = fields.box.split(":");
      const boxes = [...(woundRow(level)?.querySelectorAll("button[name=box]") || [])];
      const box =
        what === "mark"
          ? boxes.find((b) => b.value === `mark:${level}`)
          : boxes.reverse().find((b) => b.value === `clear:${level}`);
      if (!box) return;
      box.classList.toggle("marked", what === "mark");
      box.classList.add("pending");
      box.value = `${what === "mark" ? "clear" : "mark"}:${level}`;
      box.setAttribute("aria-pressed", String(what === "mark"));
      box.textContent = what === "mark" ? "✕" : "";
    } else if (write.kind === "points") {
      const count = document.querySelector(".points-count [data-points]");
      if (count) {
        const inHand = Number(count.textContent) + (fields.action === "spend" ? -1 : 1);
        count.textContent = String(inHand);
        count.classList.add("pending");
        // The points' name as many as are now in hand, in the plural form the count takes.
        const word = document.querySelector(".points-count [data-points-word]");
        const form = new Intl.PluralRules(lang).select(inHand);
        if (word) word.textContent = pointsForms[form] ?? said.pointsOther;
        // As the server draws it: with none left in hand, nothing to spend.
        const spend = count.closest("form")?.querySelector("button[value=spend]");
        if (spend) spend.disabled = inHand <= 0;
      }
    } else if (write.kind === "condition_add") {
      const list = document.querySelector(".play-conditions .conditions");
      list?.querySelector(".empty")?.remove();
      const item = document.createElement("li");
      item.className = "pending";
      item.textContent = fields.text;
      list?.append(item);
    } else if (write.kind === "condition_remove") {
      document.querySelectorAll("form[data-offline=condition_remove]").forEach((form) => {
        if (form.elements.text.value === fields.text) form.closest("li").classList.add("pending", "removed");
      });
    }
  }

  function render() {
    const writes = queue();
    const pending = bar.querySelector("[data-pending]");
    const list = bar.querySelector("[data-pending-list]");
    list.replaceChildren(
      ...writes.map((write) => {
        const item = document.createElement("li");
        item.textContent = write.what;
        return item;
      }),
    );
    pending.hidden = !writes.length;
    const state = bar.querySelector("[data-offline-state]");
    const time = syncedAt.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    state.textContent = offline ? fill(said.saidOffline, { time }) : sending ? said.saidSending : "";
    state.hidden = !state.textContent;
    bar.classList.toggle("is-offline", offline);
    bar.hidden = state.hidden && pending.hidden && bar.querySelector("[data-answers]").hidden;
  }

  // -- a roll on this device ----------------------------------------------------------------

  const ladder = said.ladder.split("|"); // lowest first
  const fair = Number(said.fair);
  const top = ladder.length - 1 - fair;
  const bottom = Number(said.bottom);
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  function levelName(level) {
    if (level > top) return `${ladder[ladder.length - 1]}+${level - top}`;
    if (level < bottom) return `${ladder[bottom + fair]}${level - bottom}`;
    return ladder[level + fair];
  }

  // One Fudge die: bytes from 252 up are drawn again so the six faces stay equally likely.
  function fudgeDie() {
    const byte = new Uint8Array(1);
    do crypto.getRandomValues(byte);
    while (byte[0] >= 252);
    return Math.floor((byte[0] % 6) / 2) - 1;
  }

  function rollHere(fields, submitter) {
    const option = [...document.querySelectorAll("#roll-trait option")].find(
      (o) => o.value === (fields.quick || fields.trait),
    );
    const level = Number(option?.dataset.level || 0);
    // The worst wound's penalty, as the page shows the track with what is queued.
    const worst = [...document.querySelectorAll(".harm-track .track-level")]
      .filter((row) => row.querySelector(".box.marked"))
      .pop();
    const penalty = Number(worst?.querySelector(".level-penalty")?.textContent || 0);
    const effective = level + penalty + (Number(fields.modifier) || 0);
    const dice = [fudgeDie(), fudgeDie(), fudgeDie(), fudgeDie()];
    const total = dice.reduce((sum, die) => sum + die, 0);
    const line = fill(said.saidRoll, {
      trait: option?.value || said.saidPlainRoll,
      level: levelName(effective),
      total: signed(total),
      result: levelName(effective + total),
    });
    // Beside the button that rolled it (a trait's row, or the roller's own), as online.
    document.getElementById("offline-roll")?.remove();
    const answer = document.createElement("p");
    answer.id = "offline-roll";
    answer.className = "message pending";
    answer.setAttribute("role", "status");
    answer.textContent = `${line} ${said.saidRolledHere}`;
    const row = submitter?.closest("li");
    if (row) row.append(answer);
    else (submitter || document.getElementById("roller-form")).after(answer);
    answer.scrollIntoView({ block: "nearest" });
    return { ...fields, dice: dice.join(","), rolled_at: new Date().toISOString(), said: line };
  }

  // -- offline: the page's forms keep their writes here -------------------------------------

  function say(text) {
    const alerts = document.getElementById("alerts");
    const line = document.createElement("p");
    line.className = "message error";
    line.setAttribute("role", "alert");
    line.textContent = text;
    alerts.replaceChildren(line);
  }

  // Before htmx sees the submit (capture, on the document): offline, nothing is posted.
  document.addEventListener(
    "submit",
    (event) => {
      if (navigator.onLine && !offline) return;
      offline = true;
      event.preventDefault();
      event.stopPropagation();
      const form = event.target;
      const kind = form.dataset.offline;
      if (!kind) return say(said.saidNeedsNetwork);
      const fields = Object.fromEntries(new FormData(form, event.submitter));
      delete fields.csrfmiddlewaretoken;
      delete fields.back;
      if (kind === "condition_add" && !fields.text.trim()) return;
      if ("revision" in fields) fields.revision = String(nextRevision());
      const write = { key: newKey(), kind, fields: kind === "roll" ? rollHere(fields, event.submitter) : fields };
      write.what = describe(kind, write.fields);
      keep([...queue(), write]);
      show(write);
      if (kind === "condition_add") form.reset();
      render();
    },
    true,
  );

  // -- back online: send, then reload to show the server's state ----------------------------

  function csrfToken() {
    return document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
  }

  async function send() {
    const writes = queue();
    if (sending || !writes.length || Date.now() < retryAfter) return;
    sending = true;
    render();
    let problem = "";
    try {
      const body = JSON.stringify({
        writes: writes.map(({ key, kind, fields }) => {
          const { said: _line, ...posted } = fields; // a roll's line is this page's alone
          return { key, kind, fields: posted };
        }),
      });
      const response = await fetch(said.sync, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body,
      });
      const answer = response.headers.get("Content-Type")?.includes("json") ? await response.json() : {};
      if (!response.ok || !answer.answers) {
        // Sent to the log-in page: the session ended while the device was offline.
        problem = answer.error || (response.redirected ? said.saidLogIn : `${response.status} ${response.statusText}`);
        retryAfter = Date.now() + 30_000;
      } else {
        const what = Object.fromEntries(writes.map((write) => [write.key, write.what]));
        const answered = new Set(answer.answers.map((a) => a.key));
        const report = answer.answers.map((a) => ({ ...a, what: what[a.key] }));
        sessionStorage.setItem(ANSWERS, JSON.stringify(report));
        keep(queue().filter((write) => !answered.has(write.key)));
        location.reload();
        return;
      }
    } catch (error) {
      problem = error.message; // the network went again: the writes stay queued
      offline = true;
    } finally {
      sending = false;
    }
    say(fill(said.saidNotSent, { reason: problem }));
    render();
  }

  function showAnswers() {
    const report = JSON.parse(sessionStorage.getItem(ANSWERS) || "null");
    if (!report) return;
    const list = bar.querySelector("[data-answers-list]");
    list.replaceChildren(
      ...report.map((answer) => {
        const item = document.createElement("li");
        item.className = answer.applied ? "applied" : "refused";
        const verdict = document.createElement("strong");
        verdict.textContent = `${answer.applied ? said.saidApplied : said.saidRefused}: `;
        item.append(verdict, answer.what.replace(/\.?$/, ". "), answer.applied ? "" : answer.said);
        return item;
      }),
    );
    bar.querySelector("[data-answers]").hidden = false;
  }

  bar.addEventListener("click", (event) => {
    if (!event.target.closest("[data-answers-close]")) return;
    sessionStorage.removeItem(ANSWERS);
    bar.querySelector("[data-answers]").hidden = true;
    render();
  });

  // -- the copy the service worker keeps ----------------------------------------------------

  // The worker keeps the page as it was loaded; once the poll has brought changes, the kept
  // copy is fetched again (and with it the offline page, in the reader's language now).
  let refresh = null;
  function keepPageLater() {
    clearTimeout(refresh);
    refresh = setTimeout(async () => {
      if (offline || !("caches" in window)) return;
      try {
        const cache = await caches.open(PAGES_CACHE);
        const response = await fetch(location.pathname, { credentials: "same-origin", cache: "no-store" });
        if (response.ok && !response.redirected) await cache.put(location.pathname, response);
      } catch (error) {
        // offline again meanwhile: the copy kept before stays
      }
    }, 1500);
  }

  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.elt || event.detail.elt.id !== "play-poll") return;
    // An answer that was on its way when the network went is no sign it is back.
    if (event.detail.successful && navigator.onLine) {
      syncedAt = new Date();
      if (offline) {
        offline = false;
        render();
      }
      if (queue().length) send();
      else if (event.detail.xhr.status === 200) keepPageLater();
    }
  });
  document.body.addEventListener("htmx:sendError", (event) => {
    if (event.detail.elt?.id !== "play-poll") return;
    offline = true;
    render();
  });
  window.addEventListener("offline", () => {
    offline = true;
    render();
  });
  window.addEventListener("online", () => {
    offline = false;
    retryAfter = 0;
    render();
    send();
  });

  if ("serviceWorker" in navigator) {
    // On the first visit the worker comes after the page: the page is kept by hand then.
    if (!navigator.serviceWorker.controller && !offline) keepPageLater();
    navigator.serviceWorker.register(said.worker).catch(() => {});
  }
  queue().forEach(show);
  showAnswers();
  sessionStorage.removeItem(ANSWERS);
  render();
  if (!offline) send();
})();
