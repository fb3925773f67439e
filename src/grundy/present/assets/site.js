// The grundy site's script: sortable tables, the index's filters (kept in the URL hash, so the
// back button and links restore a view), the paged table of false readings, and the value
// downloads, written here in the formats of grundy.present.formats. Plain DOM, nothing fetched.
// The site writes the words and colours it reads before it (grundyConstants, from
// grundy.present.site.script_constants); each page's readings carry their kinds (grundyKinds).

(function () {
  "use strict";
  var C = window.grundyConstants;
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };

  // ------------------------------------------------------------ sorting

  function cellKey(cell, numeric) {
    var raw = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent.trim();
    if (!numeric) return raw;
    raw = raw.replace(/,/g, "");
    return raw === "" || raw === "\u2013" ? null : Number(raw);
  }

  // Empty numeric cells (no period, no window) go last in either direction.
  function compare(a, b, numeric, dir) {
    if (numeric) {
      if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
      return dir * (a - b);
    }
    if (a === "" || b === "") return a === "" ? (b === "" ? 0 : 1) : -1;
    return dir * a.localeCompare(b, undefined, { numeric: true });
  }

  function markSorted(table, col, dir) {
    each(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    if (col >= 0) table.tHead.rows[0].cells[col].setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
  }

  function sortRows(table, col, dir) {
    var body = table.tBodies[0];
    var numeric = col >= 0 && table.tHead.rows[0].cells[col].getAttribute("data-type") === "num";
    var rows = Array.prototype.map.call(body.rows, function (row, i) {
      var order = Number(row.getAttribute("data-i") || i);
      return { row: row, key: col >= 0 ? cellKey(row.cells[col], numeric) : order, order: order };
    });
    rows.sort(function (a, b) {
      return (col >= 0 ? compare(a.key, b.key, numeric, dir) : a.order - b.order) || a.order - b.order;
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r.row); });
    body.appendChild(frag);
    markSorted(table, col, dir);
  }

  function onHeader(table, handler) {
    each(table.tHead.rows[0].cells, function (th, col) {
      th.setAttribute("tabindex", "0");
      th.setAttribute("title", "Sort by this column");
      function activate() { handler(col, th.getAttribute("aria-sort") === "ascending" ? -1 : 1); }
      th.addEventListener("click", activate);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); }
      });
    });
  }

  // ------------------------------------------------------------ the index

  // What a reader types for a code: ".137", "0.137" and "·137" are one code; "13" matches the digits.
  function normalise(q) {
    return q.trim().replace(/\./g, "\u00b7").replace(/^0\u00b7/, "\u00b7");
  }

  function matches(code, q) {
    if (q === "") return true;
    if (q.indexOf("\u00b7") >= 0) return code.indexOf(q) === 0;
    return code.slice(code.indexOf("\u00b7") + 1).indexOf(q) === 0;
  }

  function setupIndex(table) {
    var input = document.getElementById("filter");
    var status = document.getElementById("status");
    var shown = document.getElementById("shown");
    var cards = document.querySelectorAll(".card");
    var heads = table.tHead.rows[0].cells;
    var sort = { col: -1, dir: 1 };
    each(table.tBodies[0].rows, function (row, i) { row.setAttribute("data-i", i); });

    function hash() {
      var p = new URLSearchParams();
      if (input.value.trim()) p.set("q", input.value.trim());
      if (status.value) p.set("status", status.value);
      if (sort.col >= 0) { p.set("sort", heads[sort.col].getAttribute("data-col")); p.set("dir", sort.dir > 0 ? "asc" : "desc"); }
      var h = p.toString();
      return h ? "#" + h : "";
    }

    function filter() {
      var q = normalise(input.value), s = status.value, n = 0;
      each(table.tBodies[0].rows, function (row) {
        var ok = (s === "" || row.getAttribute("data-status") === s) && matches(row.getAttribute("data-code"), q);
        if (row.hidden === ok) row.hidden = !ok;
        if (ok) n++;
      });
      shown.textContent = n + " of " + table.tBodies[0].rows.length + " codes shown";
      each(cards, function (c) { c.classList.toggle("active", c.getAttribute("data-status") === s); });
    }

    // A discrete step (a sort, a status) is a new history entry; typing replaces the current one.
    function record(push) {
      var h = hash();
      if (h === location.hash || (h === "" && location.hash === "")) return;
      var url = h || location.pathname + location.search;
      if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
    }

    function readHash() {
      var p = new URLSearchParams(location.hash.slice(1));
      input.value = p.get("q") || "";
      status.value = p.get("status") || "";
      var col = -1;
      each(heads, function (h, i) { if (h.getAttribute("data-col") === p.get("sort")) col = i; });
      var dir = p.get("dir") === "desc" ? -1 : 1;
      if (col !== sort.col || dir !== sort.dir) { sort = { col: col, dir: dir }; sortRows(table, col, dir); }
      filter();
    }

    input.addEventListener("input", function () { filter(); record(false); });
    status.addEventListener("change", function () { filter(); record(true); });
    onHeader(table, function (col, dir) { sort = { col: col, dir: dir }; sortRows(table, col, dir); record(true); });
    window.addEventListener("hashchange", readHash);
    window.addEventListener("popstate", readHash);
    readHash();
  }

  // ------------------------------------------------------------ the false readings, a page at a time

  var PAGE = 50;

  // Rows [start, period, first, last, held to, window, kind] gain reach and, on a settled code, keep
  // their kind and say whether they started before the final start.
  var COLUMNS = ["start", "period", "first depth", "last reported", "held to", "window", "reach", "kind",
                 "before the final start"];

  function setupPaged(box, figure) {
    var settled = figure.getAttribute("data-period") !== "";
    var table = document.createElement("table");
    table.className = "sortable paged";
    table.id = "false-table";
    table.innerHTML = "<thead><tr>" + COLUMNS.slice(0, settled ? 9 : 7).map(function (c, i) {
      return '<th data-type="' + (i < 7 ? "num" : "text") + '">' + c + "</th>";
    }).join("") + "</tr></thead><tbody></tbody>";
    var pager = document.createElement("div");
    pager.className = "pager";
    box.className = "wide";
    box.appendChild(table);
    box.appendChild(pager);
    var finalStart = Number(figure.getAttribute("data-start"));
    var data = readings(figure).map(function (r) {
      var row = r.slice(0, 6).concat([r[4] / r[5]]);
      return settled ? row.concat([r[6], r[0] < finalStart ? 1 : 0]) : row;
    });
    var page = 0;
    var numeric = Array.prototype.map.call(table.tHead.rows[0].cells, function (h) { return h.getAttribute("data-type") === "num"; });

    function text(row, i) {
      var x = row[i];
      if (i === 6) return x.toFixed(3);
      if (i === 7) return C.kinds[x];
      if (i === 8) return x ? "yes" : "no";
      return x.toLocaleString("en-US");
    }

    function render() {
      var pages = Math.ceil(data.length / PAGE);
      page = Math.max(0, Math.min(page, pages - 1));
      var html = [];
      data.slice(page * PAGE, (page + 1) * PAGE).forEach(function (row) {
        html.push("<tr>" + row.map(function (_, i) {
          return "<td" + (numeric[i] ? "" : ' class="text"') + ">" + text(row, i) + "</td>";
        }).join("") + "</tr>");
      });
      table.tBodies[0].innerHTML = html.join("");
      pager.innerHTML = "";
      if (pages <= 1) return;
      var info = document.createElement("span");
      info.textContent = "rows " + (page * PAGE + 1) + "\u2013" + Math.min(data.length, (page + 1) * PAGE) + " of " + data.length + " ";
      pager.appendChild(info);
      [["previous", -1], ["next", 1]].forEach(function (b) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = b[0];
        button.disabled = (b[1] < 0 && page === 0) || (b[1] > 0 && page === pages - 1);
        button.addEventListener("click", function () { page += b[1]; render(); });
        pager.appendChild(button);
      });
    }

    onHeader(table, function (col, dir) {
      data.sort(function (a, b) { return dir * (a[col] - b[col]) || a[2] - b[2]; });
      markSorted(table, col, dir);
      page = 0;
      render();
    });
    render();
  }

  // ------------------------------------------------------------ values and their formats

  function thousands(n) { return n.toLocaleString("en-US"); }
  function pad(s, w) { s = String(s); return s.length >= w ? s : " ".repeat(w - s.length) + s; }
  function widest(values) { return values.reduce(function (w, v) { return Math.max(w, String(v).length); }, 1); }

  function periodRows(start, period) {
    var first = start % period, rows = first ? [[0, first]] : [];
    for (var h = first; h <= start; h += period) rows.push([h, period]);
    return rows;
  }

  // The same text as grundy.present.formats.render (the browser test compares them).
  function render(fmt, d, values) {
    var i, out = [];
    if (fmt === "text" && d.period != null) {
      var head = values.slice(0, d.start + d.period), w = widest(head), label = thousands(d.start).length;
      out.push("# " + d.code + ": period " + thousands(d.period) + " from heap " + thousands(d.start) + ", certified (window " + thousands(d.window) + ")");
      out.push("# values G(n) in rows of " + thousands(d.period) + "; the row marked * is the period, repeated for ever");
      periodRows(d.start, d.period).forEach(function (r) {
        var cells = head.slice(r[0], r[0] + r[1]).map(function (v) { return pad(v, w); }).join(" ");
        out.push(pad(thousands(r[0]), label) + " " + (r[0] === d.start ? "*" : " ") + " " + " ".repeat((w + 1) * (d.period - r[1])) + cells);
      });
      return out.join("\n") + "\n";
    }
    if (fmt === "text") {
      var wv = widest(values), lab = thousands(Math.max(values.length - 1, 0)).length;
      out.push("# " + d.code + ": G(n) for n = 0 to " + thousands(values.length - 1) + ", " + C.plainRow + " to a row");
      for (i = 0; i < values.length; i += C.plainRow) {
        out.push(pad(thousands(i), lab) + "  " + values.slice(i, i + C.plainRow).map(function (v) { return pad(v, wv); }).join(" "));
      }
      return out.join("\n") + "\n";
    }
    if (fmt === "csv") { out.push("n,G(n)"); for (i = 0; i < values.length; i++) out.push(i + "," + values[i]); return out.join("\n") + "\n"; }
    if (fmt === "bfile") { for (i = 0; i < values.length; i++) out.push(i + " " + values[i]); return out.join("\n") + "\n"; }
    var obj = { code: d.code, heaps: values.length, start: d.period != null ? d.start : null,
                period: d.period != null ? d.period : null, window: d.period != null ? d.window : null, values: values };
    return JSON.stringify(obj) + "\n";
  }

  var waiting = {};
  window.grundyValues = function (key, dtype, n, b64) {
    var bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    new Response(stream).arrayBuffer().then(function (buffer) {
      var view = new DataView(buffer), size = dtype === "u2" ? 2 : 4, values = new Array(n);
      for (var i = 0; i < n; i++) values[i] = size === 2 ? view.getUint16(2 * i, true) : view.getUint32(4 * i, true);
      (waiting[key] || []).forEach(function (f) { f(values); });
      delete waiting[key];
    });
  };

  // Every value of the page's code: a settled code's from its preperiod and period, others from their file.
  function loadValues(d, then) {
    if (d.period != null) {
      var values = new Array(d.heaps), s = d.start, p = d.period;
      for (var n = 0; n < d.heaps; n++) values[n] = n < s + p ? d.head[n] : d.head[s + ((n - s) % p)];
      then(values);
      return;
    }
    (waiting[d.sha] = waiting[d.sha] || []).push(then);
    var script = document.createElement("script");
    script.src = d.file;
    document.head.appendChild(script);
  }

  var EXTENSIONS = { text: ".txt", csv: ".csv", bfile: "-bfile.txt", json: ".json" };

  function setupDownloads(box) {
    var d = JSON.parse(document.getElementById("values-data").textContent);
    box.className = "downloads";
    box.innerHTML = box.getAttribute("data-formats").split(" ").map(function (f) {
      return '<button type="button" data-format="' + f + '">' + f + "</button>";
    }).join("");
    var name = d.code.replace(/^0x\u00b7/, "0x0.").replace(/^\u00b7/, "0.").replace("\u00b7", ".");
    each(box.querySelectorAll("button"), function (button) {
      button.addEventListener("click", function () {
        var fmt = button.getAttribute("data-format");
        loadValues(d, function (values) {
          var a = document.createElement("a");
          a.href = URL.createObjectURL(new Blob([render(fmt, d, values)], { type: "text/plain" }));
          a.download = name + "-" + d.heaps + EXTENSIONS[fmt];
          document.body.appendChild(a);
          a.click();
          a.remove();
        });
      });
    });
  }


  // ------------------------------------------------------------ the trajectory of readings

  // The false readings [start, period, first depth, last depth, held to, window, kind] from the flat
  // list of the readings file (five differences a reading, then the kinds of a settled code's, see
  // grundy.present.pages.readings_script).
  function readings(figure) {
    var flat = window.grundyReadings || [], kinds = window.grundyKinds || [], out = [], start = 0;
    var t = Number(figure.getAttribute("data-t")), parts = Number(figure.getAttribute("data-parts"));
    for (var i = 0; i < flat.length; i += 5) {
      start += flat[i];
      var p = flat[i + 1], first = start + flat[i + 2], last = first + flat[i + 3];
      out.push([start, p, first, last, last + flat[i + 4], parts * (start + p) + t, kinds[i / 5]]);
    }
    return out;
  }

  var FINAL = C.finalColour;
  var W = 720, LEFT = 64, RIGHT = 16;

  // At most `most` round integer ticks from lo to hi (1, 2 or 5 times a power of 10), as svg.ticks.
  function ticks(lo, hi, most) {
    for (var power = 1; power < 1e19; power *= 10) {
      for (var k = 0; k < 3; k++) {
        var step = [1, 2, 5][k] * power, first = Math.ceil(lo / step) * step;
        var count = first <= hi ? Math.floor((hi - first) / step) + 1 : 0;
        if (count >= 1 && count <= most) {
          var out = [];
          for (var t = first; t <= hi; t += step) out.push(t);
          return out;
        }
      }
    }
    return [lo];
  }

  function drawTrajectory(figure, rows) {
    var settled = figure.getAttribute("data-period") !== "";
    var end = Number(figure.getAttribute("data-end"));
    var period = settled ? Number(figure.getAttribute("data-period")) : 0;
    var rightFrom = settled ? Number(figure.getAttribute("data-right-from")) : 0;
    var sx = function (x) { return Math.round((LEFT + x / Math.max(end, 1) * (W - RIGHT - LEFT)) * 10) / 10; };
    var topH = 110, gap = 44, row = Math.min(10, 320 / Math.max(rows.length, 1));
    var y0 = 10 + topH + gap, rowsH = row * rows.length, height = y0 + rowsH + 46;
    var pmax = Math.max.apply(null, rows.map(function (r) { return r[1]; }).concat([settled ? period : 1]));
    var sy = function (p) { return Math.round((10 + topH - p / pmax * topH) * 10) / 10; };
    var paths = {}, parts = [];
    function add(kind, colour, d) { var k = kind + " " + colour; (paths[k] = paths[k] || []).push(d); }
    rows.forEach(function (r, i) {
      var colour = settled ? C.kindColours[r[6]] : C.openColour, y = Math.round((y0 + (i + 0.5) * row) * 100) / 100;
      add("step", colour, "M" + sx(r[2]) + " " + sy(r[1]) + "H" + sx(r[3] + 1));
      add("thin", colour, "M" + sx(r[0]) + " " + y + "H" + sx(Math.min(r[4], end)));
      add("bar", colour, "M" + sx(r[2]) + " " + y + "H" + sx(r[3] + 1));
      if (r[5] <= end) add("tick", colour, "M" + sx(r[5]) + " " + (y - row / 2) + "v" + row);
    });
    if (settled) add("step", FINAL, "M" + sx(rightFrom) + " " + sy(period) + "H" + sx(end));
    var widths = { step: 2.5, thin: Math.max(0.3, row / 5), bar: Math.max(0.6, row * 0.7), tick: Math.max(0.6, Math.min(2, row)) };
    parts.push('<path d="M' + LEFT + " 10V" + (10 + topH) + '" stroke="#afb8c1"/>');
    ticks(0, pmax, 4).forEach(function (t) {
      parts.push('<text x="' + (LEFT - 6) + '" y="' + (sy(t) + 4) + '" text-anchor="end">' + thousands(t) + "</text>" +
                 '<path d="M' + LEFT + " " + sy(t) + "H" + (W - RIGHT) + '" stroke="#eaeef2"/>');
    });
    parts.push('<text transform="translate(12 ' + (10 + topH / 2) + ') rotate(-90)" text-anchor="middle">period read</text>');
    Object.keys(paths).forEach(function (k) {
      var kc = k.split(" "), opacity = kc[0] === "thin" ? ' stroke-opacity="0.6"' : "";
      parts.push('<path class="' + kc[0] + '" d="' + paths[k].join("") + '" stroke="' + kc[1] + '" stroke-width="' + widths[kc[0]] + '"' + opacity + ' fill="none"/>');
    });
    parts.push('<text x="' + LEFT + '" y="' + (y0 - 6) + '">' + (rows.length ? thousands(rows.length) + (settled ? " false readings" : " readings so far") + ", in order of first depth" : "No reading other than the final one.") + "</text>");
    if (settled) parts.push('<path d="M' + sx(end) + " 10V" + (y0 + rowsH) + '" stroke="' + FINAL + '" stroke-dasharray="4 3"/>');
    var ya = y0 + rowsH + 4;
    parts.push('<path d="M' + LEFT + " " + ya + "H" + (W - RIGHT) + '" stroke="#afb8c1"/>');
    ticks(0, end, 6).forEach(function (t) {
      parts.push('<path d="M' + sx(t) + " " + ya + 'v4" stroke="#6e7781"/><text class="tick" x="' + sx(t) + '" y="' + (ya + 15) + '" text-anchor="middle">' + thousands(t) + "</text>");
    });
    parts.push('<text x="' + (LEFT + W - RIGHT) / 2 + '" y="' + (ya + 30) + '" text-anchor="middle">depth</text>');
    var holder = document.createElement("div");
    holder.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + " " + height + '" role="img" font-family="system-ui, sans-serif" font-size="11">' + parts.join("") + "</svg>";
    figure.insertBefore(holder.firstChild, figure.firstChild);
  }

  window.grundySite = { render: render, loadValues: loadValues, ticks: ticks };

  var codes = document.getElementById("codes");
  if (codes) setupIndex(codes);
  var trajectory = document.getElementById("trajectory");
  if (trajectory) drawTrajectory(trajectory, readings(trajectory));
  var paged = document.getElementById("false");
  if (paged) setupPaged(paged, trajectory);
  each(document.querySelectorAll("table.sortable:not(#codes):not(.paged)"), function (table) {
    onHeader(table, function (col, dir) { sortRows(table, col, dir); });
  });
  var downloads = document.getElementById("downloads");
  if (downloads) setupDownloads(downloads);
})();
