// The claims report's table: filter by work and verdict, search, sort by any column (deviation first).
// Self-contained (no library, no network); the data is the JSON in <script id="claims-data">.
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }
  ready(function () {
    var dataNode = document.getElementById("claims-data");
    var table = document.getElementById("claims-table");
    if (!dataNode || !table) return;
    var data = JSON.parse(dataNode.textContent);
    var columns = data.columns.concat(["deviation"]);
    var labels = { deviation: "deviation / tol.", paper_value: "paper", reproduced_value: "ours" };
    var work = document.getElementById("claims-work");
    var verdict = document.getElementById("claims-verdict");
    var search = document.getElementById("claims-search");
    var count = document.getElementById("claims-count");
    var sortKey = null, sortDir = 1;

    var head = document.createElement("tr");
    columns.forEach(function (c) {
      var th = document.createElement("th");
      th.textContent = labels[c] || c;
      th.dataset.key = c;
      th.title = "sort by " + (labels[c] || c);
      th.addEventListener("click", function () { sortBy(c, sortKey === c ? -sortDir : (c === "deviation" ? -1 : 1)); });
      head.appendChild(th);
    });
    table.tHead.appendChild(head);

    function value(row, key) {
      var v = row[key];
      return v === null || v === undefined ? "" : v;
    }
    function compare(a, b) {
      var x = value(a, sortKey), y = value(b, sortKey);
      if (sortKey === "deviation") {  // rows without a numeric deviation go last either way
        if (x === "" && y === "") return 0;
        if (x === "") return 1;
        if (y === "") return -1;
        return sortDir * (x - y);
      }
      return sortDir * String(x).localeCompare(String(y), undefined, { numeric: true });
    }
    function sortBy(key, dir) {
      sortKey = key; sortDir = dir;
      Array.prototype.forEach.call(head.children, function (th) {
        th.setAttribute("aria-sort", th.dataset.key === key ? (dir > 0 ? "ascending" : "descending") : "none");
      });
      render();
    }
    function render() {
      var w = work.value, v = verdict.value, q = search.value.trim().toLowerCase();
      var rows = data.rows.filter(function (r) {
        if (w && r.work !== w) return false;
        if (v && r.verdict !== v) return false;
        if (q && !columns.some(function (c) { return String(value(r, c)).toLowerCase().indexOf(q) >= 0; })) return false;
        return true;
      });
      if (sortKey) rows = rows.slice().sort(compare);
      var body = document.createElement("tbody");
      rows.forEach(function (r) {
        var tr = document.createElement("tr");
        tr.className = "v-" + r.verdict;
        columns.forEach(function (c) {
          var td = document.createElement("td");
          var x = value(r, c);
          td.textContent = c === "deviation" && x !== "" ? Number(x).toPrecision(3) : x;
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      table.replaceChild(body, table.tBodies[0]);
      count.textContent = rows.length + " of " + data.rows.length + " claims";
      var hash = [];
      if (w) hash.push("work=" + encodeURIComponent(w));
      if (v) hash.push("verdict=" + encodeURIComponent(v));
      history.replaceState(null, "", hash.length ? "#" + hash.join("&") : location.pathname);
    }
    // a link such as claims-report.html#work=routing&verdict=deviates opens pre-filtered
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      var node = kv[0] === "work" ? work : kv[0] === "verdict" ? verdict : null;
      if (node && kv[1]) node.value = decodeURIComponent(kv[1]);
    });
    [work, verdict].forEach(function (n) { n.addEventListener("change", render); });
    search.addEventListener("input", render);
    document.getElementById("claims-sort-deviation").addEventListener("click", function () { sortBy("deviation", -1); });
    render();
  });
})();
