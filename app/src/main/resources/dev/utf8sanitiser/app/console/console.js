// The DLQ console's only script, and all of it optional: the pages work without it.
// 1. "refresh every 10 s" on the overview, remembered for the tab.
// 2. The replay token, remembered for the tab (sessionStorage, never a cookie, never sent but
//    with the confirming form), so that a second replay does not ask again.
(function () {
  "use strict";
  var refresh = document.getElementById("auto-refresh");
  if (refresh) {
    refresh.checked = sessionStorage.getItem("utf8-sanitiser.refresh") === "on";
    var timer = null;
    var arm = function () {
      if (timer) { clearTimeout(timer); timer = null; }
      if (refresh.checked) { timer = setTimeout(function () { location.reload(); }, 10000); }
    };
    refresh.addEventListener("change", function () {
      sessionStorage.setItem("utf8-sanitiser.refresh", refresh.checked ? "on" : "off");
      arm();
    });
    arm();
  }
  var token = document.getElementById("token");
  if (token) {
    var saved = sessionStorage.getItem("utf8-sanitiser.token");
    if (saved) { token.value = saved; }
    token.form.addEventListener("submit", function () {
      sessionStorage.setItem("utf8-sanitiser.token", token.value);
    });
  }
})();
