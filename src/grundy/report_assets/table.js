// The grundy report's tables: sort by any column, filter the index by code and status.
// Plain DOM, no library, nothing fetched. The index keeps its state in the URL hash
// (#q=·137&status=settled&sort=period&dir=asc) so a filtered, sorted view can be linked.
"use strict";

(function () {
  function cellKey(row, col, numeric) {
    var cell = row.cells[col];
    var raw = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent.trim();
    if (!numeric) return raw;
    return raw === "" ? null : Number(raw);
  }

  // Empty numeric cells (no period, no window) go last in either direction.
  function compare(a, b, numeric, dir) {
    if (numeric) {
      if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
      return dir * (a - b);
    }
    return dir * a.localeCompare(b, undefined, { numeric: true });
  }

  function sortTable(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    var numeric = th.getAttribute("data-type") === "num";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return { row: row, key: cellKey(row, col, numeric), i: i };
    });
    rows.sort(function (a, b) { return compare(a.key, b.key, numeric, dir) || a.i - b.i; });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
  }

  function columnIndex(table, name) {
    var cells = table.tHead.rows[0].cells;
    for (var i = 0; i < cells.length; i++) if (cells[i].getAttribute("data-col") === name) return i;
    return -1;
  }

  // What a reader types for a code: ".137", "0.137" and "·137" are one code; "13" matches the digits.
  function normalise(q) {
    q = q.trim().replace(/\./g, "\u00b7");
    return q.replace(/^0\u00b7/, "\u00b7");
  }

  function matches(code, q) {
    if (q === "") return true;
    if (q.indexOf("\u00b7") >= 0) return code.indexOf(q) === 0;
    var digits = code.slice(code.indexOf("\u00b7") + 1);
    return digits.indexOf(q) === 0;
  }

  function setupIndex(table) {
    var input = document.getElementById("filter");
    var status = document.getElementById("status");
    var shown = document.getElementById("shown");
    var state = { sort: null, dir: 1 };

    function apply() {
      var q = normalise(input.value);
      var s = status.value;
      var n = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var ok = matches(row.getAttribute("data-code"), q) && (s === "" || row.getAttribute("data-status") === s);
        row.hidden = !ok;
        if (ok) n++;
      });
      shown.textContent = n + " of " + table.tBodies[0].rows.length + " codes shown";
      var params = new URLSearchParams();
      if (input.value.trim()) params.set("q", input.value.trim());
      if (s) params.set("status", s);
      if (state.sort) { params.set("sort", state.sort); params.set("dir", state.dir > 0 ? "asc" : "desc"); }
      var hash = params.toString();
      history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
    }

    function sortBy(name, dir) {
      var col = columnIndex(table, name);
      if (col < 0) return;
      state.sort = name;
      state.dir = dir;
      sortTable(table, col, dir);
    }

    var params = new URLSearchParams(location.hash.slice(1));
    if (params.get("q")) input.value = params.get("q");
    if (params.get("status")) status.value = params.get("status");
    if (params.get("sort")) sortBy(params.get("sort"), params.get("dir") === "desc" ? -1 : 1);
    input.addEventListener("input", apply);
    status.addEventListener("change", apply);
    table.addEventListener("sorted", function (e) { sortBy(e.detail.name, e.detail.dir); apply(); });
    apply();
  }

  function setupSortable(table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.setAttribute("tabindex", "0");
      th.setAttribute("title", "Sort by this column");
      function activate() {
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        var name = th.getAttribute("data-col");
        if (name && table.id === "codes") {
          table.dispatchEvent(new CustomEvent("sorted", { detail: { name: name, dir: dir } }));
        } else {
          sortTable(table, col, dir);
        }
      }
      th.addEventListener("click", activate);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); } });
    });
  }

  document.querySelectorAll("table.sortable").forEach(setupSortable);
  var codes = document.getElementById("codes");
  if (codes) setupIndex(codes);
})();
