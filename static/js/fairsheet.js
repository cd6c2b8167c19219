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
  document.addEventListener("input", function (event) {
    var list = event.target.getAttribute && event.target.getAttribute("data-picker-search");
    if (!list) return;
    var wanted = event.target.value.trim().toLowerCase();
    document.querySelectorAll("#" + list + " > li").forEach(function (item) {
      item.hidden = wanted !== "" && item.getAttribute("data-name").indexOf(wanted) === -1;
    });
  });
})();
