// The claims report's table, drawn by DataTables (the bundle itables ships, made a classic script
// _static/vendor/datatables/dt_bundle.classic.js by safeguarded.site, which sets window.DataTable: no
// network, and no module either, so the page works opened from disk, file://, as well as served). This
// script only configures it: the data is the JSON in <script id="claims-data"> ({columns, rows as
// arrays, the distinct texts of the dictionary-encoded columns, verdicts}); runs, location and solver are
// hidden until chosen with the "columns" button (the search sees them); each row's item links to the
// notebook section that computed it (its "link"), its notebook column names the notebook and the stored
// sweeps it read ("sweeps"); the selects filter one column each (exact value), the search box is
// DataTables' own (debounced), and every filter is written to the URL hash
// (#work=routing&verdict=deviates&source=routing_fig1&q=...), which re-filters the table when it
// changes, so a filtered view can be linked (each notebook page links to its rows so).
(function () {
"use strict";
const DataTable = window.DataTable;
const node = document.getElementById("claims-data");
const holder = document.getElementById("claims-table");
if (node && holder) {
  const payload = JSON.parse(node.textContent);
  const columns = payload.columns;
  const values = payload.values || {};  // dictionary-encoded columns: position -> distinct texts
  payload.rows = payload.rows.map((r) => r.map((v, i) => (values[i] ? values[i][v] : v)));
  const index = Object.fromEntries(columns.map((c, i) => [c, i]));
  const labels = { deviation: "|deviation| / tol.", paper_value: "paper", reproduced_value: "ours",
                   source: "notebook" };
  const EMPTY = "(none)";
  const filters = Array.from(document.querySelectorAll("#claims-app select[data-column]"))
    .filter((s) => s.dataset.column in index);
  const dev = index.deviation;
  const number = (v) => (v === null || v === undefined || v === "" ? null : Number(v));
  const text = DataTable.render.text();
  const HIDDEN = new Set(["runs", "location", "solver"]);  // shown with the "columns" button
  const DATA_ONLY = new Set(["link", "sweeps"]);  // shown inside the item and notebook cells
  const html = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const link = index.link;
  // the item: a link to the notebook section that computed the row (where the row has one)
  const itemCell = (v, kind, row) => {
    if (kind !== "display") return v ?? "";
    const to = link === undefined ? "" : row[link];
    const sweeps = index.sweeps === undefined ? "" : row[index.sweeps];
    return to ? `<a class="claims-source" href="${html(to)}" title="the notebook section that computed it: ` +
      `${html(to.replace(/^works\//, "").replace(/\.html#/, " § "))}${sweeps ? "; " + html(sweeps) : ""}">` +
      `${html(v)}</a>` : html(v);
  };
  // the notebook, linked, and the stored sweeps it read (or why there is none)
  const sourceCell = (v, kind, row) => {
    if (kind !== "display") return v ?? "";
    const to = link === undefined ? "" : row[link];
    const sweeps = index.sweeps === undefined ? "" : row[index.sweeps];
    return (v && to ? `<a href="${html(to)}">${html(v)}</a>` : html(v)) +
      (sweeps ? `<div class="claims-sweeps">${html(sweeps)}</div>` : "");
  };

  const shown = columns.map((c, i) => [c, i]).filter(([c]) => !DATA_ONLY.has(c));
  const colOf = Object.fromEntries(shown.map(([c], k) => [c, k]));  // column -> DataTables' column index
  const devCol = colOf.deviation;

  const table = new DataTable(holder, {
    data: payload.rows,
    columns: shown.map(([c, i]) => ({
      title: labels[c] || c.replaceAll("_", " "),
      data: i,
      className: "col-" + c,
      visible: !HIDDEN.has(c),
      type: i === dev ? "num" : "string",
      render: i === dev
        ? (v, kind) => {
          const x = number(v);
          if (kind === "sort" || kind === "type") return x === null ? -1 : x;  // no number: last
          return x === null ? "" : String(Number(x.toPrecision(3)));
        }
        : c === "item" ? itemCell : c === "source" ? sourceCell : text,
    })),
    deferRender: true,
    autoWidth: false,
    order: [],
    pageLength: 25,
    lengthMenu: [10, 25, 50, 100, 500],
    searchDelay: 400,
    layout: { topStart: ["pageLength", { buttons: [{ extend: "colvis", text: "columns" }] }] },
    language: { search: "search all columns:", info: "rows _START_–_END_ of _TOTAL_",
                infoFiltered: "(filtered from _MAX_)" },
    createdRow: (row, data) => row.classList.add("v-" + data[index.verdict]),
  });
  window.claimsTable = table;

  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const optionsOf = (column, rows) => {
    const seen = new Set(rows.map((r) => r[index[column]] ?? ""));
    const order = (payload.order || {})[column];
    const values = order ? order.filter((v) => seen.has(v)).concat([...seen].filter((v) => !order.includes(v)).sort())
      : [...seen].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    return values.map((v) => (v === "" ? EMPTY : v));
  };
  const fill = (select, values) => {
    const keep = select.value;
    select.replaceChildren(new Option("all", ""), ...values.map((v) => new Option(v, v)));
    select.value = values.includes(keep) ? keep : "";
  };
  const byColumn = Object.fromEntries(filters.map((s) => [s.dataset.column, s]));
  filters.forEach((s) => fill(s, optionsOf(s.dataset.column, payload.rows)));
  const fillItems = () => {  // the item list follows the chosen work
    if (!byColumn.item) return;
    const work = byColumn.work ? byColumn.work.value : "";
    fill(byColumn.item, optionsOf("item", work ? payload.rows.filter((r) => r[index.work] === work) : payload.rows));
  };

  const apply = () => {
    for (const s of filters) {
      const v = s.value;
      const pattern = v === "" ? "" : v === EMPTY ? "^$" : "^" + escape(v) + "$";
      table.column(colOf[s.dataset.column]).search(pattern, true, false);
    }
  };
  const state = () => {
    const params = new URLSearchParams();
    for (const s of filters) if (s.value) params.set(s.dataset.column, s.value);
    if (table.search()) params.set("q", table.search());
    const order = table.order();
    if (order.length && order[0][0] === devCol) params.set("sort", order[0][1] === "desc" ? "deviation" : "-deviation");
    return params.toString();
  };
  const writeHash = () => {
    const hash = state();
    if (hash !== location.hash.slice(1)) history.replaceState(null, "", hash ? "#" + hash : location.pathname);
  };
  const readHash = () => {
    const params = new URLSearchParams(location.hash.slice(1));
    if (byColumn.work) byColumn.work.value = params.get("work") || "";
    fillItems();
    for (const s of filters) {
      const v = params.get(s.dataset.column) || "";
      s.value = Array.from(s.options).some((o) => o.value === v) ? v : "";
    }
    table.search(params.get("q") || "");
    const sort = params.get("sort");
    table.order(sort === "deviation" ? [[devCol, "desc"]] : sort === "-deviation" ? [[devCol, "asc"]] : []);
    apply();
    table.draw();
  };

  const count = document.getElementById("claims-count");
  table.on("draw", () => {
    const info = table.page.info();
    if (count) count.textContent = `${info.recordsDisplay} of ${info.recordsTotal} claims`;
    writeHash();
  });
  filters.forEach((s) => s.addEventListener("change", () => {
    if (s === byColumn.work) fillItems();
    apply();
    table.draw();
  }));
  const sortButton = document.getElementById("claims-sort-deviation");
  if (sortButton) sortButton.addEventListener("click", () => table.order([[devCol, "desc"]]).draw());
  const reset = document.getElementById("claims-reset");
  if (reset) reset.addEventListener("click", () => { history.replaceState(null, "", location.pathname); readHash(); });
  window.addEventListener("hashchange", readHash);
  readHash();
}
})();
