// Fairsheet's small enhancements. Every form also works as a plain HTML post without this.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // After a write, the server sends HX-Trigger {"versionChanged": {"value": N}}: every form
  // on the page then carries the new version, so the next click is not refused as stale.
  document.addEventListener("versionChanged", function (event) {
    var value = event.detail && event.detail.value;
    if (value === undefined) return;
    document.querySelectorAll('input[name="version"]').forEach(function (input) {
      input.value = value;
    });
  });

  // Logging out forgets the play pages this device kept for use offline (docs/offline.md):
  // the next person at the device does not open them without a connection. The post waits
  // for the cache to go, then goes as it would have.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-forget-offline") || !window.caches || form.forgotten) return;
    event.preventDefault();
    form.forgotten = true;
    window.caches
      .delete("fairsheet-play-pages")
      .catch(function () {})
      .then(function () {
        form.submit();
      });
  });

  // The new-character form: choosing a campaign shows (and fixes) the ruleset it plays,
  // one of the ruleset's radios, and names its game (a GM's own has no radio): the name of
  // the group its option is in.
  // With no campaign, the ruleset the player chose comes back (else one is chosen, as the
  // campaign left none for a GM's own game).
  function followCampaign(campaign) {
    if (!campaign.form) return;
    var chosen = campaign.selectedOptions[0];
    var plays = chosen && chosen.getAttribute("data-ruleset");
    var own = campaign.form.getAttribute("data-own-ruleset");
    var rulesets = campaign.form.querySelectorAll("[data-follows-campaign]");
    rulesets.forEach(function (ruleset) {
      if (plays) ruleset.checked = ruleset.value === plays;
      else if (own) ruleset.checked = ruleset.value === own;
      ruleset.disabled = Boolean(plays);
    });
    if (!plays && rulesets.length && !campaign.form.querySelector("[data-follows-campaign]:checked")) {
      rulesets[0].checked = true;
    }
    var said = document.getElementById("campaign-plays");
    var group = chosen && chosen.parentElement;
    var game = group && group.tagName === "OPTGROUP" ? group.label : "";
    if (said) {
      said.textContent = game ? said.getAttribute("data-said").replace("{game}", game) : "";
      said.hidden = !game;
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "campaign") followCampaign(event.target);
    if (event.target.hasAttribute("data-follows-campaign")) {
      event.target.form.setAttribute("data-own-ruleset", event.target.value);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[name=campaign]").forEach(followCampaign);
  });

  // A catalogue picker's search box narrows its list to the entries whose name holds what
  // was typed (without scripts the whole list shows, each entry with its own Add button).
  // When none does, the picker's status line says so and points to the add row, where a
  // name of the player's own is added; it is emptied again as soon as one does.
  document.addEventListener("input", function (event) {
    var list = event.target.getAttribute && event.target.getAttribute("data-picker-search");
    if (!list) return;
    var typed = event.target.value.trim();
    var wanted = typed.toLowerCase();
    var left = 0;
    document.querySelectorAll("#" + list + " > li").forEach(function (item) {
      item.hidden = wanted !== "" && item.getAttribute("data-name").indexOf(wanted) === -1;
      if (!item.hidden) left += 1;
    });
    var none = document.querySelector('[data-picker-none="' + list + '"]');
    if (!none) return;
    // A function, so that what was typed is put in as it is ("$&" is no pattern here).
    var said = none.getAttribute("data-said").replace("{query}", function () {
      return typed;
    });
    none.textContent = left ? "" : said;
  });

  // A picker's search given back what was typed in it, its list narrowed again (above).
  function searchAgain(search, typed) {
    search.value = typed;
    search.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // A picker drawn again by its Add at (htmx: each cost quoted at the new level) keeps what
  // was typed in its search, its list narrowed as before, and the focus on its Add at.
  var redrawnPicker = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var level = event.detail.elt;
    var picker = level.closest && level.closest(".picker-level") && level.closest("details.picker");
    if (!picker) return;
    var search = picker.querySelector("input[data-picker-search]");
    redrawnPicker = { id: picker.id, typed: search ? search.value : "" };
  });
  document.addEventListener("htmx:afterSettle", function () {
    var redrawn = redrawnPicker && document.getElementById(redrawnPicker.id);
    if (!redrawn) return;
    var search = redrawn.querySelector("input[data-picker-search]");
    if (search && redrawnPicker.typed) searchAgain(search, redrawnPicker.typed);
    var level = redrawn.querySelector(".picker-level select");
    if (level) level.focus({ preventScroll: true });
    redrawnPicker = null;
  });

  // A Copy button beside what a person sends on (an invite link, a share link, a token):
  // it copies the field's text and says so. Without scripts the button is not shown, and
  // the field is there to select and copy by hand (templates/partials/copy_field.html).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    var text = field.value !== undefined ? field.value : field.textContent.trim();
    var said = button.parentNode.querySelector(".copy-said");
    function copied() {
      if (said) said.textContent = button.getAttribute("data-copied");
    }
    if (field.select) field.select();
    else window.getSelection().selectAllChildren(field);
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(copied, function () {
        if (document.execCommand("copy")) copied();
      });
    } else if (document.execCommand("copy")) {
      copied();
    }
  });

  // The budget chip closes once one of its rules is chosen: the page scrolls to the row.
  document.addEventListener("click", function (event) {
    var link = event.target.closest(".budget-chip a");
    if (link) link.closest("details").open = false;
  });

  // -- Where an answer goes: beside the control that sent it, in view ----------------------
  // One mechanism for every form in the product, GET forms too. A form answers with a
  // role="alert" (it was refused) or role="status" (it was done, or what was asked for): #alerts
  // and the page's messages for a whole page or an htmx answer, a form's own errors for one
  // that did not validate, the part of the page a GET form asked for (a template's check).
  // The answer is moved beside what sent it (found again after a reload or a swap by the
  // nearest id around it): at the end of the list item of the button that was pressed (an
  // entry of a picker, a trait's Roll), else at the end of the form. It is scrolled into
  // view and focused, so it is read where the eye already is, not at the top of a long page,
  // and it is in the page's flow: it never floats over a control.
  var SENT = "fairsheet:sent";
  // A picker's search line (role="status" too) answers a search, never a form.
  var ANSWER = "[role=alert], [role=status]:not([data-picker-none])";
  var BUTTONS = "button, input[type=submit]";

  // The button that was pressed, by the part of the page around it and its place among that
  // part's buttons; it may sit outside its form (a trait's Roll names the roller's form).
  function senderOf(button) {
    if (!button || !button.closest) return null;
    var anchor = button.closest("[id]");
    var scope = anchor || document;
    return {
      anchor: anchor ? anchor.id : "",
      index: Array.prototype.indexOf.call(scope.querySelectorAll(BUTTONS), button),
      name: button.getAttribute("name") || "",
    };
  }

  function senderAt(sender) {
    if (!sender) return null;
    var scope = sender.anchor ? document.getElementById(sender.anchor) : document;
    var button = scope && scope.querySelectorAll(BUTTONS)[sender.index];
    return button && (button.getAttribute("name") || "") === sender.name ? button : null;
  }

  function whereIs(form, button) {
    var anchor = form.closest("[id]");
    var scope = anchor || document;
    // What follows it, and the part around it: where the answer goes when the write took
    // the form away with its row (a row removed).
    var next = anchor && anchor.nextElementSibling;
    while (next && !next.id) next = next.nextElementSibling;
    var outer = anchor && anchor.parentElement && anchor.parentElement.closest("[id]");
    return {
      page: location.pathname,
      anchor: anchor ? anchor.id : "",
      index: Array.prototype.indexOf.call(scope.querySelectorAll("form"), form),
      action: form.getAttribute("action") || "",
      sender: senderOf(button),
      next: next ? next.id : "",
      outer: outer ? outer.id : "",
    };
  }

  function formAt(where) {
    if (!where) return null;
    var anchor = where.anchor && document.getElementById(where.anchor);
    if (anchor) {
      if (anchor.tagName === "FORM") return anchor;
      // The same form, if it is still there; else the part of the page it was in (a
      // confirmation that answered and went, a one-time button): never another form that
      // took its place, which may sit in a row or a closed list.
      var same = anchor.querySelectorAll("form")[where.index];
      return same && (same.getAttribute("action") || "") === where.action ? same : anchor;
    }
    if (!where.action) return null;
    return Array.prototype.find.call(document.forms, function (form) {
      return form.getAttribute("action") === where.action;
    }) || null;
  }

  // What sits at the top of the screen over the page (the builder's budget chip, once it
  // sticks there): an answer is scrolled clear of it.
  function coveredTop() {
    var bar = document.querySelector(".budget-chip");
    var box = bar && getComputedStyle(bar).display !== "none" && bar.getBoundingClientRect();
    return box && box.top <= 1 ? Math.max(0, box.bottom) : 0;
  }

  // An answer inside a closed <details> (the portrait and share forms, a rest redrawn
  // closed) is opened to.
  function reveal(answer) {
    for (var closed = answer.closest("details:not([open])"); closed; ) {
      closed.open = true;
      closed = closed.parentElement && closed.parentElement.closest("details:not([open])");
    }
  }

  // The answer is scrolled into view (its start, when it is taller than the screen); the
  // focus goes to the field to fix when the form marks one (a refusal about what was typed),
  // else to the answer itself.
  function show(answer) {
    reveal(answer);
    if (!answer.hasAttribute("tabindex")) answer.setAttribute("tabindex", "-1");
    var top = coveredTop();
    var tall = answer.getBoundingClientRect().height > window.innerHeight - top - 16;
    answer.scrollIntoView({ block: tall ? "start" : "center" });
    var box = answer.getBoundingClientRect();
    if (box.top < top + 8) window.scrollBy(0, box.top - top - 8);
    var form = answer.closest("form");
    var field = form && form.querySelector('[aria-invalid="true"], [autofocus]');
    (field || answer).focus({ preventScroll: true });
    if (placed) placed.focused = true;
  }

  // A box laid out as a row: a select beside its button, buttons side by side. An answer
  // put in one is squeezed in beside the controls, a word a line.
  function inRow(box) {
    var style = getComputedStyle(box);
    if (style.display.indexOf("inline") === 0) return true;
    return style.display.indexOf("flex") !== -1 && style.flexDirection.indexOf("row") === 0;
  }

  // The list item the pressed button was in, found by its id, when the answer drew it anew
  // without that button (a picker's entry the list has now: no Add left to press).
  function entryOf(where) {
    var id = where && where.sender && where.sender.anchor;
    var item = id && document.getElementById(id);
    return item && item.tagName === "LI" ? item : null;
  }

  // At the end of the list item of the button that was pressed, when the form is not inside
  // that item (a picker's entry; a trait's Roll, outside the roller's form). Else at the end
  // of the form, on a line of its own: after the form when the form is a row or sits in one
  // (and after that row, when it sits in another).
  function place(form, answer, button, where) {
    if (!form) {
      var next = where && where.next && document.getElementById(where.next);
      var outer = where && where.outer && document.getElementById(where.outer);
      if (next) next.before(answer);
      else if (outer) outer.appendChild(answer);
      return;
    }
    var item = button ? button.closest("li") : entryOf(where);
    if (item && !(form && item.contains(form))) {
      item.appendChild(answer);
      return;
    }
    var box = form;
    while (box.parentElement && box.parentElement !== document.body && inRow(box.parentElement)) {
      box = box.parentElement;
    }
    if (box === form && !inRow(form)) form.appendChild(answer);
    else box.after(answer);
  }

  // The answer shown last and where it belongs: a later swap (the play page's poll, a row
  // saved again) may take away the part of the page it was put in; it is put back.
  var placed = null;

  function answerAt(form, messages, button, where) {
    var moved = document.querySelectorAll(".answer-placed");
    moved.forEach(function (old) { if (old !== messages) old.remove(); });
    placed = null;
    if (messages && messages.querySelector(ANSWER)) {
      messages.classList.add("answer-placed");
      if (form || where) {
        place(form, messages, button, where);
        placed = { answer: messages, form: form, button: button, where: where, focused: false };
      }
      show(messages.querySelector(ANSWER));
      return;
    }
    // Else the form's own errors, or an answer in the part of the page around it (a new
    // token shown above the form that made it, a template's check below its form).
    var around = form && (form.parentNode.closest("[id]") || form.parentNode);
    var own =
      (form && form.querySelector(ANSWER + ", .errorlist, .field-error, .row-errors")) ||
      (around && around.querySelector(ANSWER));
    if (!own) return;
    if (!own.matches(ANSWER)) own.setAttribute("role", "alert");
    show(own);
  }

  function putBack() {
    if (!placed || placed.answer.isConnected) return;
    var where = placed.where;
    var form = placed.form && placed.form.isConnected ? placed.form : formAt(where);
    var button = placed.button && placed.button.isConnected ? placed.button : senderAt(where && where.sender);
    place(form, placed.answer, button, where);
    reveal(placed.answer);
    // The focus went with it: it comes back, where the reader is reading.
    var lost = !document.activeElement || document.activeElement === document.body;
    var answer = placed.answer.matches(ANSWER) ? placed.answer : placed.answer.querySelector(ANSWER);
    if (placed.focused && lost && answer && placed.answer.isConnected) answer.focus({ preventScroll: true });
  }
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:afterSettle"].forEach(function (name) {
    document.addEventListener(name, putBack);
  });

  // Undo and redo load the page again (the whole build may have changed): the reader stays
  // where they were on it, rather than being taken back to the top or to the buttons. The
  // place is the part of the page (with an id: a row, a section) in the middle of the
  // screen, kept at the same height.
  var PLACE = "fairsheet:place";
  function inView() {
    var middle = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    return middle && middle.closest("main [id]:not(input, select, textarea, button, label)");
  }
  // The part and the parts around it, innermost first: the page may come back without the
  // part itself (a picker's entry, its list closed again), and the nearest one left stands in.
  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("data-keep-place")) return;
    var part = inView();
    var ids = [];
    for (var around = part; around; around = around.parentElement && around.parentElement.closest("main [id]")) {
      ids.push(around.id);
    }
    // What was typed in an open picker's search: its list opens again with the page.
    var searches = {};
    document.querySelectorAll("input[data-picker-search]").forEach(function (search) {
      if (search.value) searches[search.getAttribute("data-picker-search")] = search.value;
    });
    sessionStorage.setItem(PLACE, JSON.stringify({
      page: location.pathname,
      y: window.scrollY,
      ids: ids,
      top: part ? part.getBoundingClientRect().top : 0,
      searches: searches,
    }));
  });
  document.addEventListener("DOMContentLoaded", function () {
    var place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
    sessionStorage.removeItem(PLACE);
    if (!place || place.page !== location.pathname) return;
    Object.keys(place.searches || {}).forEach(function (list) {
      var search = document.querySelector('input[data-picker-search="' + list + '"]');
      if (search) searchAgain(search, place.searches[list]);
    });
    var part = null;
    (place.ids || []).some(function (id) { return (part = document.getElementById(id)); });
    function keep(what, top) {
      window.scrollBy(0, what.getBoundingClientRect().top - top);
    }
    if (part) keep(part, place.top);
    else window.scrollTo(0, place.y);
    // The news ("Undone: …") is at the top, out of sight from down the page: it goes where
    // the reader is, in the page's flow just before the part in the middle of the screen
    // (before the list or table that part is an item of), which stays where it was.
    var news = document.querySelector("main > .messages");
    var answer = news && news.querySelector(ANSWER);
    if (!answer) return;
    answer.setAttribute("tabindex", "-1");
    var seen = news.getBoundingClientRect();
    if (seen.top >= coveredTop() && seen.bottom <= window.innerHeight) {
      answer.focus({ preventScroll: true }); // in view already, at the top
      return;
    }
    // The part in the middle of the screen, else (a gap between parts there) the one kept.
    var here = inView() || part;
    while (
      here && here.parentElement && here.parentElement.tagName !== "MAIN" &&
      (/^(UL|OL|TABLE|TBODY|THEAD|TR|DL|FORM)$/.test(here.parentElement.tagName) || inRow(here.parentElement))
    ) {
      here = here.parentElement;
    }
    if (!here || here.contains(news)) {
      answer.focus({ preventScroll: true });
      return;
    }
    var top = here.getBoundingClientRect().top;
    here.before(news);
    news.classList.add("answer-placed");
    keep(here, top);
    var box = answer.getBoundingClientRect();
    if (box.top < coveredTop() + 8) window.scrollBy(0, box.top - coveredTop() - 8);
    answer.focus({ preventScroll: true });
  });

  // A plain form loads a page (a post's answer, or what a GET form asked for, on this same
  // page): the form and the button pressed are remembered, to answer beside them.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.hasAttribute("data-keep-place")) return; // its news: above
    // htmx takes over its own forms (below).
    if (form.hasAttribute("hx-post") || form.hasAttribute("hx-get")) return;
    var button = event.submitter;
    var method = ((button && button.getAttribute("formmethod")) || form.getAttribute("method") || "get").toLowerCase();
    var action = (button && button.getAttribute("formaction")) || form.action;
    // A GET form that reads another page (a PDF, a check) answers there.
    if (method === "get" && new URL(action, location.href).pathname !== location.pathname) return;
    sessionStorage.setItem(SENT, JSON.stringify(whereIs(form, button)));
  });

  document.addEventListener("DOMContentLoaded", function () {
    var where = JSON.parse(sessionStorage.getItem(SENT) || "null");
    sessionStorage.removeItem(SENT);
    if (!where) return;
    if (where.page !== location.pathname) where = null; // it answered on another page
    // The address's #part is for a browser without script: once the page has loaded, the
    // browser would scroll to it, and take the focus from the answer when it is no control.
    if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
    var form = formAt(where);
    answerAt(form, document.querySelector("main > .messages"), form && senderAt(where.sender), where);
  });

  // htmx checks a form before sending it, and drops it without a word when a field breaks
  // its own rule (a name emptied, then the field left: "change" is no submit, so the
  // browser shows no message). It is sent anyway: the server refuses it and says why, beside
  // the field, in the page's language.
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.errors && event.detail.errors.length) event.detail.errors = [];
  });

  // htmx: the element that sent the request, remembered by where it is, since the answer
  // may replace it (a row swapped for its saved state).
  var pending = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig || {};
    if (config.verb !== "post") return; // a poll or a read answers nothing
    var elt = event.detail.elt;
    // Nor does a post that saves nothing (the designer's live preview, a row added): the
    // focus stays where the GM types.
    if (elt.closest("[data-preview]")) return;
    var trigger = config.triggeringEvent;
    var button = (trigger && trigger.submitter) || (elt.matches(BUTTONS) ? elt : null);
    pending = whereIs(elt.closest("form") || elt, button);
    var alerts = document.getElementById("alerts");
    if (alerts) alerts.replaceChildren();
    // An earlier answer's Undo and Redo (buttons of the page's own forms, named for the edit
    // they answered) are out of date once another write goes: they would take back or put
    // back whatever is latest then, under an old label. The new answer brings its own; the
    // page's pair at the top is drawn again with it.
    document.querySelectorAll(".answer-actions").forEach(function (actions) { actions.remove(); });
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var where = pending;
    pending = null;
    var xhr = event.detail.xhr;
    if (!where || !xhr || !xhr.status) return;
    var form = formAt(where);
    var button = senderAt(where.sender);
    // An answer that loads the page again (a gift taken away with its attribute): the
    // page's news answers beside the form, as after a plain post; undo and redo keep their
    // reader's place instead (above).
    if (xhr.getResponseHeader("HX-Refresh") || xhr.getResponseHeader("HX-Redirect")) {
      if (!(form && form.hasAttribute("data-keep-place"))) {
        sessionStorage.setItem(SENT, JSON.stringify(where));
      }
      return;
    }
    var alerts = document.getElementById("alerts");
    var answer = alerts && alerts.querySelector(ANSWER);
    if (!answer) {
      answerAt(form, null, button, where);
      return;
    }
    // #alerts stays empty and in place for the next answer: what it holds goes to the form.
    var box = document.createElement("div");
    box.className = "answer";
    box.append.apply(box, Array.prototype.slice.call(alerts.childNodes));
    alerts.appendChild(box); // answerAt moves it to the form
    answerAt(form, box, button, where);
  });
})();
