// The statblock's Copy buttons (templates/sheets/statblock.html). Without this file each
// format is still a read-only textarea to select and copy; with it each gets a button that
// copies it and says so. One listener for the whole page: the builder opens its statblock
// with htmx after the page has loaded, and a party view holds one per character.
"use strict";

(() => {
  const reveal = (root) => {
    root.querySelectorAll("[data-copy]").forEach((button) => {
      button.hidden = false;
    });
  };

  function say(button, words) {
    const status = button.parentElement.querySelector("[data-copy-status]");
    if (!status) return;
    status.textContent = words;
    clearTimeout(button.sayTimer);
    button.sayTimer = setTimeout(() => {
      status.textContent = "";
    }, 4000);
  }

  // The clipboard API needs a secure page (and, in a frame, the framing site's leave); the
  // older command works on a selection. Either way the text ends up selected for the reader.
  async function copy(source) {
    source.focus();
    source.select();
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(source.value);
        return true;
      } catch (refused) {
        // fall through to the selection
      }
    }
    try {
      return document.execCommand("copy");
    } catch (refused) {
      return false;
    }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const copied = await copy(source);
    say(button, copied ? button.dataset.saidCopied : button.dataset.saidFailed);
  });

  document.addEventListener("DOMContentLoaded", () => reveal(document));
  document.addEventListener("htmx:afterSwap", (event) => reveal(event.target));
})();
