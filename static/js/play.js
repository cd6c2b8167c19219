// The play page and the party view (templates/play/). Everything here is a convenience on top
// of forms that work as plain posts: the roller's chance of success, worked out as the
// player chooses (the server works it out again for the log), and emptying a text box once
// its condition or blow is saved. From a file: the site's CSP forbids inline script.
"use strict";

(() => {
  const roller = document.getElementById("roller-form");

  // "{name}: {percent} to reach {word}" with its values in place.
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);

  // Fudge Basics, "Odds of Rolling Exactly on 4dF": data-at-least holds, for a needed
  // result of -4 up to +4, how many of the 81 rolls reach it.
  function showOdds() {
    const line = document.getElementById("roll-odds");
    const against = roller.elements.against;
    if (!line || !against || against.value === "") {
      if (line) line.hidden = true;
      return;
    }
    const atLeast = roller.dataset.atLeast.split(" ").map(Number);
    const trait = roller.elements.trait.selectedOptions[0];
    const penalty = Number(document.getElementById("roll-penalty")?.dataset.penalty || 0);
    const modifier = Number(roller.elements.modifier.value) || 0;
    const effective = Number(trait.dataset.level) + penalty + modifier;
    const need = Number(against.value) - effective;
    const ways = need <= -4 ? 81 : need > 4 ? 0 : atLeast[need + 4];
    // The sentences come from the form's data-said-* attributes, in the page's language.
    const said = roller.dataset;
    const number = ((ways * 100) / 81).toLocaleString(document.documentElement.lang || "en", {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
    const percent = fill(said.saidPercent, { number });
    const word = against.selectedOptions[0].textContent;
    const dice =
      need <= -4
        ? said.saidAnyRoll
        : need > 4
          ? said.saidNoRoll
          : fill(said.saidNeed, { need: `${need > 0 ? "+" : ""}${need}` });
    const name = trait.value || said.saidPlainRoll;
    line.textContent = fill(said.saidOdds, { name, percent, word, dice });
    line.hidden = false;
  }

  if (roller) {
    // A trait's own Roll button also picks it in the roller, so the odds name it too.
    document.addEventListener("click", (event) => {
      const quick = event.target.closest("button[name=quick]");
      if (!quick) return;
      roller.elements.trait.value = quick.value;
      showOdds();
    });
    roller.addEventListener("input", showOdds);
    roller.addEventListener("change", showOdds);
    // The wound penalty arrives with the page's poll: the odds follow it.
    document.body.addEventListener("htmx:oobAfterSwap", showOdds);
    showOdds();
  }

  document.addEventListener("click", (event) => {
    const close = event.target.closest("[data-close-roll]");
    if (close) close.closest(".roll-result").hidden = true;
  });

  // A 4xx is no htmx error here (base.html's responseHandling): a refused form keeps what
  // was typed, so only a 2xx empties it.
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    const done = event.detail.xhr && event.detail.xhr.status < 300;
    if (done && form.matches && form.matches("form[data-reset-on-success]")) {
      form.reset();
    }
  });
})();
