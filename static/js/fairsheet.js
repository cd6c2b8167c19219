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

  // The new-character form: choosing a campaign shows (and fixes) the ruleset it plays.
  function followCampaign(campaign) {
    var ruleset = campaign.form && campaign.form.querySelector("[data-follows-campaign]");
    if (!ruleset) return;
    var chosen = campaign.selectedOptions[0];
    var plays = chosen && chosen.getAttribute("data-ruleset");
    if (plays) ruleset.value = plays;
    ruleset.disabled = Boolean(plays);
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "campaign") followCampaign(event.target);
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

  // -- Where a write's answer goes: beside the control that sent it, in view ----------------
  // One mechanism for every form in the product. A write answers with a role="alert" (it
  // was refused) or role="status" (it was done): #alerts and the page's messages for a
  // whole page or an htmx refusal, a form's own errors for one that did not validate. The
  // answer is moved to the end of the form that sent it (found again after a reload or a
  // swap by the nearest id around it), scrolled into view and focused, so it is read where
  // the eye already is, not at the top of a long page.
  var SENT = "fairsheet:sent";
  // A picker's search line (role="status" too) answers a search, never a write.
  var ANSWER = "[role=alert], [role=status]:not([data-picker-none])";

  function whereIs(form) {
    var anchor = form.closest("[id]");
    var scope = anchor || document;
    return {
      page: location.pathname,
      anchor: anchor ? anchor.id : "",
      index: Array.prototype.indexOf.call(scope.querySelectorAll("form"), form),
      action: form.getAttribute("action") || "",
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

  // The answer is scrolled into view; the focus goes to the field to fix when the form
  // marks one (a refusal about what was typed), else to the answer itself.
  function show(answer) {
    // An answer inside a closed <details> (the portrait and share forms) is opened to.
    for (var closed = answer.closest("details:not([open])"); closed; ) {
      closed.open = true;
      closed = closed.parentElement && closed.parentElement.closest("details:not([open])");
    }
    if (!answer.hasAttribute("tabindex")) answer.setAttribute("tabindex", "-1");
    answer.scrollIntoView({ block: "center" });
    var form = answer.closest("form");
    var field = form && form.querySelector('[aria-invalid="true"], [autofocus]');
    (field || answer).focus({ preventScroll: true });
  }

  // A box laid out as a row: a select beside its button, buttons side by side. An answer
  // put in one is squeezed in beside the controls, a word a line.
  function inRow(box) {
    var style = getComputedStyle(box);
    if (style.display.indexOf("inline") === 0) return true;
    return style.display.indexOf("flex") !== -1 && style.flexDirection.indexOf("row") === 0;
  }

  // At the end of the form, on a line of its own: after the form when the form is a row or
  // sits in one (and after that row, when it sits in another).
  function place(form, answer) {
    var box = form;
    while (box.parentElement && box.parentElement !== document.body && inRow(box.parentElement)) {
      box = box.parentElement;
    }
    if (box === form && !inRow(form)) form.appendChild(answer);
    else box.after(answer);
  }

  // The messages a page or #alerts holds, moved to the form; or the form's own errors.
  function answerAt(form, messages) {
    var moved = document.querySelectorAll(".answer-placed");
    moved.forEach(function (old) { if (old !== messages) old.remove(); });
    if (messages && messages.querySelector(ANSWER)) {
      messages.classList.add("answer-placed");
      if (form) place(form, messages);
      show(messages.querySelector(ANSWER));
      return;
    }
    // Else the form's own errors, or an answer in the part of the page around it (a new
    // token shown above the form that made it).
    var around = form && (form.parentNode.closest("[id]") || form.parentNode);
    var own =
      (form && form.querySelector(ANSWER + ", .errorlist, .field-error, .row-errors")) ||
      (around && around.querySelector(ANSWER));
    if (!own) return;
    if (!own.matches(ANSWER)) own.setAttribute("role", "alert");
    show(own);
  }

  // Undo and redo load the page again (the whole build may have changed): the reader stays
  // where they were on it, rather than being taken back to the top or to the buttons. The
  // place is the part of the page (with an id: a row, a section) in the middle of the
  // screen, kept at the same height: the news above the page moves nothing.
  var PLACE = "fairsheet:place";
  function inView() {
    var middle = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    return middle && middle.closest("main [id]");
  }
  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("data-keep-place")) return;
    var part = inView();
    sessionStorage.setItem(PLACE, JSON.stringify({
      page: location.pathname,
      y: window.scrollY,
      id: part ? part.id : "",
      top: part ? part.getBoundingClientRect().top : 0,
    }));
  });
  document.addEventListener("DOMContentLoaded", function () {
    var place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
    sessionStorage.removeItem(PLACE);
    if (!place || place.page !== location.pathname) return;
    var part = place.id && document.getElementById(place.id);
    function restore() {
      if (part) window.scrollBy(0, part.getBoundingClientRect().top - place.top);
      else window.scrollTo(0, place.y);
    }
    restore();
    // The news ("Undone: …") is at the top, out of sight from down the page: it floats at
    // the foot of the screen instead, where the reader is, and is read out there. Taken out
    // of the page's flow, it moves what was below it: the place is kept again.
    var news = document.querySelector(".messages");
    if (news && news.getBoundingClientRect().bottom < 0) {
      news.classList.add("messages-floating");
      restore();
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.hasAttribute("data-keep-place")) return; // its news waits at the top
    // htmx takes over its own forms (below); a plain post loads a page: remember the form.
    if (form.hasAttribute("hx-post")) return;
    sessionStorage.setItem(SENT, JSON.stringify(whereIs(form)));
  });

  document.addEventListener("DOMContentLoaded", function () {
    var where = JSON.parse(sessionStorage.getItem(SENT) || "null");
    sessionStorage.removeItem(SENT);
    if (!where) return;
    var form = where.page === location.pathname ? formAt(where) : null;
    answerAt(form, document.querySelector("main > .messages"));
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
    pending = whereIs(elt.closest("form") || elt);
    var alerts = document.getElementById("alerts");
    if (alerts) alerts.replaceChildren();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var where = pending;
    pending = null;
    if (!where || !event.detail.xhr || !event.detail.xhr.status) return;
    var form = formAt(where);
    var alerts = document.getElementById("alerts");
    var answer = alerts && alerts.querySelector(ANSWER);
    if (!answer) {
      answerAt(form, null);
      return;
    }
    // #alerts stays empty and in place for the next answer: what it holds goes to the form.
    var placed = document.createElement("div");
    placed.className = "answer";
    placed.append.apply(placed, Array.prototype.slice.call(alerts.childNodes));
    alerts.appendChild(placed); // answerAt moves it to the form
    answerAt(form, placed);
  });
})();
