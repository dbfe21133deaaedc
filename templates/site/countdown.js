/* Votal: live countdown to the deadline and times in the reader's own zone. No libraries, no network. */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function remaining(ms) {
    if (ms <= 0) { return null; }
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
    return (d > 0 ? d + "d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s % 60) + " left";
  }

  function localize() {
    var nodes = document.querySelectorAll("time.local[datetime]");
    for (var i = 0; i < nodes.length; i++) {
      var when = new Date(nodes[i].getAttribute("datetime"));
      if (isNaN(when.getTime())) { continue; }
      var options = nodes[i].classList.contains("short")
        ? { weekday: "short", hour: "2-digit", minute: "2-digit" }
        : { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
      nodes[i].title = nodes[i].textContent;
      nodes[i].textContent = when.toLocaleString(undefined, options);
    }
  }

  var clocks = document.querySelectorAll(".countdown[data-deadline]");
  var ticks = 0;
  function tick() {
    ticks += 1;
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var deadline = Date.parse(clocks[i].getAttribute("data-deadline"));
      if (isNaN(deadline)) { continue; }
      var left = remaining(deadline - now);
      clocks[i].textContent = left === null ? "Deadline passed" : left;
      clocks[i].classList.toggle("over", left === null);
      clocks[i].setAttribute("data-seconds", String(Math.max(0, Math.floor((deadline - now) / 1000))));
      clocks[i].setAttribute("data-ticks", String(ticks));
    }
  }
  localize();
  if (clocks.length) {
    tick();
    setInterval(tick, 1000);
  }
}());
