/*
 * ntidx report: draws the page from the data inside it (the JSON of
 * tools/report_json.h). No library: a few helpers to make elements, scales
 * and axes, and one function per section. Every string from the trace goes
 * into the page as text (textContent, SVG text nodes), never as markup.
 *
 * A section per analysis: SECTIONS names the analyses the page knows and
 * draws charts for; an analysis the page does not know still gets a section
 * with its tables (genericSection), so one added to the command shows up
 * before it has charts of its own.
 */
(function () {
  'use strict';

  var SVG_NS = 'http://www.w3.org/2000/svg';
  var GEN_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f'];
  var GEN_NAMES = ['Gen 0', 'Gen 1', 'Gen 2', 'LOH', 'POH'];
  var PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7',
    '#9c755f', '#bab0ac', '#2f6f8f', '#c26b2c'];
  var TABLE_PAGE = 200; /* rows shown before "show all" */

  var DATA = JSON.parse(document.getElementById('ntidx-data').textContent);
  var app = document.getElementById('app');

  /* ---------------------------------------------------------------- */
  /* Data                                                              */
  /* ---------------------------------------------------------------- */

  var analyses = {};
  (DATA.analyses || []).forEach(function (a) {
    var tables = {};
    a.tables.forEach(function (t) {
      var names = t.columns.map(function (c) { return c.name; });
      tables[t.name] = {
        name: t.name,
        columns: t.columns,
        rowCount: t.row_count,
        rows: t.rows.map(function (r) {
          var o = {};
          for (var i = 0; i < names.length; i++) o[names[i]] = r[i];
          return o;
        })
      };
    });
    analyses[a.name] = { name: a.name, tables: tables, tableOrder: a.tables.map(function (t) { return t.name; }),
      stats: a.stats };
  });

  function isNum(v) { return typeof v === 'number' && isFinite(v); }

  /* ---------------------------------------------------------------- */
  /* Elements                                                          */
  /* ---------------------------------------------------------------- */

  function h(tag, attrs) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) append(e, arguments[i]);
    return e;
  }

  function s(tag, attrs) {
    var e = document.createElementNS(SVG_NS, tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) append(e, arguments[i]);
    return e;
  }

  function setAttrs(e, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === 'text') e.textContent = String(v);
      else if (k === 'onclick') e.addEventListener('click', v);
      else e.setAttribute(k, String(v));
    });
  }

  function append(e, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) c.forEach(function (x) { append(e, x); });
    else if (typeof c === 'string' || typeof c === 'number') e.appendChild(document.createTextNode(String(c)));
    else e.appendChild(c);
  }

  /* ---------------------------------------------------------------- */
  /* Numbers                                                           */
  /* ---------------------------------------------------------------- */

  /* One formatter per number of decimals: toLocaleString() with options makes a new one at every call, which
     costs a page of thousands of marks seconds. */
  var formatters = {};
  function formatter(d) {
    return formatters[d] || (formatters[d] = new Intl.NumberFormat('en-US', { minimumFractionDigits: d,
      maximumFractionDigits: d }));
  }
  function fixed(v, d) { return isNum(v) ? formatter(d).format(v) : '–'; }
  function count(v) {
    if (isNum(v)) return Number.isInteger(v) ? formatter(0).format(v) : formatter(3).format(v);
    return v === null || v === undefined ? '–' : String(v);
  }
  function ms(v) { return isNum(v) ? fixed(v, Math.abs(v) >= 1000 ? 1 : 3) + ' ms' : '–'; }
  function mb(v) { return isNum(v) ? fixed(v, 3) + ' MB' : '–'; }
  function pct(v) { return isNum(v) ? fixed(v, 2) + '%' : '–'; }
  function bytes(v) {
    if (!isNum(v)) return '–';
    var u = ['bytes', 'kB', 'MB', 'GB', 'TB'], i = 0;
    while (Math.abs(v) >= 1000 && i < u.length - 1) { v /= 1000; i++; }
    return (i ? fixed(v, 1) : String(v)) + ' ' + u[i];
  }

  /* A linear scale from [d0, d1] to [r0, r1]. */
  function linear(d0, d1, r0, r1) {
    var k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
    var f = function (v) { return r0 + (v - d0) * k; };
    f.invert = function (p) { return k ? d0 + (p - r0) / k : d0; };
    return f;
  }

  /* Round tick values (1, 2, 5 x 10^n) covering [lo, hi], about n of them. */
  function ticks(lo, hi, n) {
    if (!(hi > lo)) return [lo];
    var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n)));
    var err = (hi - lo) / n / step;
    if (err >= 7.5) step *= 10; else if (err >= 3.5) step *= 5; else if (err >= 1.5) step *= 2;
    var out = [], first = Math.ceil(lo / step) * step;
    for (var v = first; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    out.step = step;
    return out;
  }

  function tickLabel(v, step) {
    var d = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step)));
    return fixed(v, d);
  }

  /* ---------------------------------------------------------------- */
  /* The tooltip: any element with a __tip (a title and [key, value] rows) */
  /* ---------------------------------------------------------------- */

  var tip = document.getElementById('tip');
  /* `title` and `rows` may be functions, called when the tooltip shows: a chart of thousands of marks formats
     the numbers of the one hovered, not of all. */
  function setTip(el, title, rows) { el.__tip = { title: title, rows: rows }; }
  function showTip(t, x, y) {
    tip.textContent = '';
    tip.appendChild(h('div', { class: 't', text: typeof t.title === 'function' ? t.title() : t.title }));
    var tb = h('table');
    (typeof t.rows === 'function' ? t.rows() : t.rows).forEach(function (r) {
      if (r) tb.appendChild(h('tr', null, h('td', { class: 'k', text: r[0] }), h('td', { class: 'v', text: r[1] })));
    });
    tip.appendChild(tb);
    tip.hidden = false;
    var w = tip.offsetWidth, hh = tip.offsetHeight;
    var left = x + 14, top = y + 14;
    if (left + w > window.innerWidth - 8) left = Math.max(8, x - w - 14);
    if (top + hh > window.innerHeight - 8) top = Math.max(8, y - hh - 14);
    tip.style.left = left + 'px';
    tip.style.top = top + 'px';
  }
  document.addEventListener('pointermove', function (e) {
    var t = e.target;
    while (t && !t.__tip) t = t.parentNode;
    if (t) showTip(t.__tip, e.clientX, e.clientY);
    else tip.hidden = true;
  });
  document.addEventListener('pointerleave', function () { tip.hidden = true; });

  /* ---------------------------------------------------------------- */
  /* Tables                                                            */
  /* ---------------------------------------------------------------- */

  /*
   * cols: [{key, label, fmt(value, row) -> string, num (right-aligned, sorted as numbers), title, cls,
   * chip(row) -> colour}]. Rows sort on a header's click; the first TABLE_PAGE are shown, the rest on demand.
   */
  function dataTable(cols, rows, opts) {
    opts = opts || {};
    var shown = opts.all ? Infinity : TABLE_PAGE;
    var order = rows.slice();
    var sortKey = null, sortDir = 1;
    var table = h('table', { class: 'data' });
    var thead = h('thead'), tbody = h('tbody');
    var headRow = h('tr');
    cols.forEach(function (c) {
      var th = h('th', { class: c.num ? 'num' : null, title: c.title || null }, c.label);
      th.addEventListener('click', function () {
        if (sortKey === c) sortDir = -sortDir;
        else { sortKey = c; sortDir = c.num ? -1 : 1; }
        order.sort(function (a, b) {
          var x = sortValue(c, a), y = sortValue(c, b);
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          return (x < y ? -1 : 1) * sortDir;
        });
        Array.prototype.forEach.call(headRow.children, function (t) { var a = t.querySelector('.arrow'); if (a) t.removeChild(a); });
        th.appendChild(h('span', { class: 'arrow', text: sortDir < 0 ? '▼' : '▲' }));
        fill();
      });
      headRow.appendChild(th);
    });
    thead.appendChild(headRow);
    table.appendChild(thead);
    table.appendChild(tbody);
    var wrap = h('div', { class: 'table-wrap' }, table);
    var more = h('div', { class: 'more' });
    function fill() {
      tbody.textContent = '';
      var n = Math.min(order.length, shown);
      for (var i = 0; i < n; i++) tbody.appendChild(rowOf(order[i]));
      if (opts.total) tbody.appendChild(rowOf(opts.total, 'total'));
      more.textContent = '';
      if (order.length > n) {
        more.appendChild(document.createTextNode('Showing ' + count(n) + ' of ' + count(order.length) + ' rows. '));
        more.appendChild(h('button', { type: 'button', text: 'Show all', onclick: function () { shown = Infinity; fill(); } }));
      }
      if (opts.rowCount > rows.length)
        more.appendChild(document.createTextNode(' The page holds the first ' + count(rows.length) + ' of ' +
          count(opts.rowCount) + ' rows (ntidx report --rows).'));
    }
    function rowOf(r, cls) {
      var tr = h('tr', { class: cls || null });
      cols.forEach(function (c) {
        var v = c.value ? c.value(r) : r[c.key];
        var text = c.fmt ? c.fmt(v, r) : defaultFormat(v);
        var td = h('td', { class: [c.num ? 'num' : 'text', c.cls || '', v === null || v === undefined ? 'dim' : '']
          .join(' ').trim() });
        if (c.chip) {
          var col = c.chip(r);
          if (col) td.appendChild(h('span', { class: 'chip', style: 'background:' + col }));
        }
        td.appendChild(document.createTextNode(text));
        if (!c.num && text.length > 60) td.title = text;
        tr.appendChild(td);
      });
      return tr;
    }
    fill();
    return h('div', null, wrap, more);
  }

  function sortValue(c, r) {
    var v = c.value ? c.value(r) : r[c.key];
    if (v === null || v === undefined) return null;
    if (c.num) return typeof v === 'string' ? Number(v) : (v === true ? 1 : v === false ? 0 : v);
    return String(v).toLowerCase();
  }

  function defaultFormat(v) {
    if (v === null || v === undefined) return '–';
    if (v === true) return 'yes';
    if (v === false) return 'no';
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : fixed(v, 3);
    return String(v);
  }

  /* The columns of any table of an analysis, formatted by their types. */
  function genericColumns(t) {
    return t.columns.map(function (c) {
      var num = c.type === 'int' || c.type === 'uint' || c.type === 'double';
      return { key: c.name, label: c.name, title: c.description, num: num,
        fmt: c.type === 'double' ? function (v) { return fixed(v, 3); } : null };
    });
  }

  /* ---------------------------------------------------------------- */
  /* Time charts: one view (zoom) shared by every chart on a time axis */
  /* ---------------------------------------------------------------- */

  var win = DATA.window || {};
  var fullView = null; /* [lo, hi] ms: the window, widened to hold every record */
  var view = null;
  var timeCharts = [];

  function widenView(lo, hi) {
    if (!isNum(lo) || !isNum(hi)) return;
    if (!fullView) fullView = [lo, hi];
    else { fullView[0] = Math.min(fullView[0], lo); fullView[1] = Math.max(fullView[1], hi); }
  }

  function setView(v) {
    view = v;
    timeCharts.forEach(function (c) { if (!c.staticWidth) c.draw(); });
    zoombars.forEach(function (z) { z(); });
  }

  var zoombars = [];
  function zoomBar() {
    var label = h('span');
    var reset = h('button', { type: 'button', text: 'Whole window' });
    reset.addEventListener('click', function () { setView(fullView.slice()); });
    var bar = h('div', { class: 'zoombar' }, label, reset);
    function update() {
      var zoomed = view && fullView && (view[0] > fullView[0] || view[1] < fullView[1]);
      label.textContent = view ? (zoomed ? 'Zoomed to ' : 'Showing ') + fixed(view[0], 1) + ' – ' + fixed(view[1], 1) +
        ' ms' + (zoomed ? '' : '; drag across a chart to zoom') : '';
      reset.disabled = !zoomed;
    }
    zoombars.push(update);
    update();
    return bar;
  }

  /* one left margin for every time chart, so that their time axes line up down the page */
  var MARGIN = { left: 172, right: 16, top: 8, bottom: 34 };

  /*
   * A chart over time in `holder`: `draw(svg, x, width)` adds its marks for the scale x (ms to pixels) between
   * MARGIN.left and width - MARGIN.right; `height` is the plot's height. Drag to zoom every time chart.
   */
  function timeChart(holder, height, draw) {
    var chart = {
      draw: function () {
        holder.textContent = '';
        var width = Math.max(480, holder.clientWidth || 900);
        var total = height + MARGIN.top + MARGIN.bottom;
        var svg = s('svg', { width: width, height: total, viewBox: '0 0 ' + width + ' ' + total });
        var x = linear(view[0], view[1], MARGIN.left, width - MARGIN.right);
        var clipId = 'clip' + Math.random().toString(36).slice(2);
        svg.appendChild(s('defs', null, s('clipPath', { id: clipId },
          s('rect', { x: MARGIN.left, y: 0, width: width - MARGIN.left - MARGIN.right, height: total }))));
        var grid = s('g', { class: 'grid' }), axis = s('g', { class: 'axis' });
        var tk = ticks(view[0], view[1], Math.max(3, Math.floor((width - MARGIN.left) / 110)));
        tk.forEach(function (v) {
          var px = x(v);
          grid.appendChild(s('line', { x1: px, x2: px, y1: MARGIN.top, y2: MARGIN.top + height }));
          axis.appendChild(s('line', { x1: px, x2: px, y1: MARGIN.top + height, y2: MARGIN.top + height + 4 }));
          axis.appendChild(s('text', { x: px, y: MARGIN.top + height + 16, 'text-anchor': 'middle',
            text: tickLabel(v, tk.step) }));
        });
        axis.appendChild(s('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: MARGIN.top + height,
          y2: MARGIN.top + height }));
        axis.appendChild(s('text', { class: 'axis-label', x: width - MARGIN.right, y: MARGIN.top + height + 30,
          'text-anchor': 'end', text: 'ms since the trace\u2019s sync time' }));
        svg.appendChild(grid);
        svg.appendChild(axis);
        var plot = s('g', { 'clip-path': 'url(#' + clipId + ')' });
        svg.appendChild(plot);
        /* drawn detached, then put in the page once: thousands of marks cost one layout, not thousands */
        draw(svg, plot, x, width);
        brush(svg, x, width, height);
        holder.appendChild(svg);
      }
    };
    timeCharts.push(chart);
    return chart;
  }

  function brush(svg, x, width, height) {
    var start = null, rect = null;
    svg.addEventListener('pointerdown', function (e) {
      if (e.button !== 0) return;
      var p = localX(svg, e);
      if (p < MARGIN.left || p > width - MARGIN.right) return;
      start = p;
      rect = s('rect', { class: 'brush', x: p, y: MARGIN.top, width: 0, height: height });
      svg.appendChild(rect);
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener('pointermove', function (e) {
      if (start === null) return;
      var p = Math.max(MARGIN.left, Math.min(width - MARGIN.right, localX(svg, e)));
      rect.setAttribute('x', Math.min(start, p));
      rect.setAttribute('width', Math.abs(p - start));
    });
    svg.addEventListener('pointerup', function (e) {
      if (start === null) return;
      var p = Math.max(MARGIN.left, Math.min(width - MARGIN.right, localX(svg, e)));
      var a = Math.min(start, p), b = Math.max(start, p);
      start = null;
      if (rect) svg.removeChild(rect);
      rect = null;
      if (b - a >= 4) setView([x.invert(a), x.invert(b)]);
    });
  }

  function localX(svg, e) { return e.clientX - svg.getBoundingClientRect().left; }

  /* A rectangle [t0, t1] ms on a lane, at least 1 px wide so that the shortest pause shows. */
  function spanRect(x, t0, t1, y, hgt, attrs) {
    var x0 = x(t0), x1 = x(t1);
    var a = { x: x0, y: y, width: Math.max(1, x1 - x0), height: hgt };
    Object.keys(attrs).forEach(function (k) { a[k] = attrs[k]; });
    return s('rect', a);
  }

  function laneLabels(svg, width, names, laneH, gap) {
    names.forEach(function (n, i) {
      var y = MARGIN.top + i * (laneH + gap);
      svg.insertBefore(s('rect', { class: 'lane-band', x: MARGIN.left, y: y, width: width - MARGIN.left - MARGIN.right,
        height: laneH }),
        svg.firstChild.nextSibling);
      svg.appendChild(s('text', { class: 'lane', x: MARGIN.left - 8, y: y + laneH / 2 + 4, 'text-anchor': 'end',
        text: n.length > 27 ? n.slice(0, 26) + '…' : n }));
    });
  }

  function legend(items) {
    return h('div', { class: 'legend' }, items.map(function (it) {
      return h('span', { class: 'key' }, h('i', { class: it.line ? 'line' : null,
        style: 'background:' + it.color + (it.opacity ? ';opacity:' + it.opacity : '') }), it.label);
    }));
  }

  /* ---------------------------------------------------------------- */
  /* Sections                                                          */
  /* ---------------------------------------------------------------- */

  function section(id, title) {
    var sec = h('section', { class: 'analysis', id: id }, h('h2', { text: title }));
    return sec;
  }

  function readNote(a) {
    var st = a.stats || {};
    var parts = [count(st.events) + ' events read'];
    parts.push(count(st.field_errors) + ' skipped (payload not matching its layout)');
    parts.push(count(st.unmatched) + ' paired with nothing');
    parts.push(count(st.incomplete) + ' incomplete');
    return h('p', { class: 'read', text: parts.join(', ') + '; ' + bytes(st.bytes_read) + ' of trace read in ' +
      count(st.regions) + ' region' + (st.regions === 1 ? '' : 's') + ' on ' + count(st.threads) + ' thread' +
      (st.threads === 1 ? '' : 's') + (st.lookahead_events ? ', ' + count(st.lookahead_events) +
      ' events past the window' : '') + '.' });
  }

  function genOf(g) { return g.generation >= 0 && g.generation <= 2 ? g.generation : 2; }

  /* PerfView's short name of a GC: 2Bi (generation, N/B/F, I/i). */
  function gcName(g) {
    var t = g.type === 'NonConcurrentGC' ? 'N' : g.type === 'BackgroundGC' ? 'B' : g.type === 'ForegroundGC' ? 'F' : '';
    var i = g.reason === 'Induced' ? 'I' : g.reason === 'InducedNotForced' ? 'i' : '';
    return g.generation + t + i;
  }

  function gcTypeText(t) {
    return t === 'NonConcurrentGC' ? 'blocking' : t === 'BackgroundGC' ? 'background' :
      t === 'ForegroundGC' ? 'foreground' : String(t);
  }

  function gcTip(g) {
    return [['Reason', String(g.reason)], ['Type', g.type + ' (' + gcTypeText(g.type) + ')'],
      ['Pause start', ms(g.pause_start_relative_ms)], ['Pause', ms(g.pause_duration_ms)],
      ['Suspension', ms(g.suspend_duration_ms)], ['GC start', ms(g.start_relative_ms)],
      ['GC duration', ms(g.duration_ms)], ['Heap before', mb(g.heap_size_before_mb)],
      ['Heap after', g.heap_size_after_mb >= 0 ? mb(g.heap_size_after_mb) : 'no GC/HeapStats'],
      ['Promoted', g.promoted_mb >= 0 ? mb(g.promoted_mb) : '–'],
      ['Allocated since last GC', mb(g.alloced_since_last_gc_mb)],
      ['Thread', String(g.thread)], g.is_complete ? null : ['Complete', 'no: its end was not found']];
  }

  function renderGc(a) {
    var gcs = a.tables.gc ? a.tables.gc.rows : [];
    var sum = a.tables.gc_summary ? a.tables.gc_summary.rows : [];
    var sec = section('gc', 'Garbage collections');
    var pids = {};
    sum.forEach(function (r) { pids[r.pid] = 1; });
    var multi = Object.keys(pids).length > 1;
    var all = sum.filter(function (r) { return r.generation === 'all'; });
    if (!gcs.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No GC in this window. The GC analysis needs the runtime\u2019s GC ' +
        'events (provider Microsoft-Windows-DotNETRuntime, keyword 0x1, level 4).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var total = all.reduce(function (acc, r) { return acc + (r.total_pause_time_ms || 0); }, 0);
    var lead = h('p', { class: 'lead' }, h('b', { text: count(a.tables.gc.rowCount) }), ' GCs paused the process for ',
      h('b', { text: ms(total) }));
    if (all.length === 1)
      append(lead, [', ', h('b', { text: pct(all[0].gc_pause_time_percentage) }), ' of the ',
        h('b', { text: ms(all[0].process_duration_ms) }), ' from the first pause to the last GC/HeapStats']);
    append(lead, '.');
    sec.appendChild(lead);

    sec.appendChild(zoomBar());
    sec.appendChild(h('div', { class: 'title', text: 'Pauses by generation (a bar per GC; the thin bar under it: a ' +
      'background GC running)' }));
    var holder = h('div', { class: 'chart', id: 'gc-pauses' });
    sec.appendChild(holder);
    var laneH = 22, gap = 6;
    gcs.forEach(function (g) {
      widenView(g.pause_start_relative_ms, g.pause_start_relative_ms + (g.pause_duration_ms || 0));
      widenView(g.start_relative_ms, g.start_relative_ms + (g.duration_ms || 0));
    });
    timeChart(holder, 3 * laneH + 2 * gap, function (svg, plot, x, width) {
      laneLabels(svg, width, ['Gen 0', 'Gen 1', 'Gen 2'], laneH, gap);
      gcs.forEach(function (g) {
        var gen = genOf(g), y = MARGIN.top + gen * (laneH + gap);
        if (g.type === 'BackgroundGC' && isNum(g.duration_ms)) {
          var span = spanRect(x, g.start_relative_ms, g.start_relative_ms + g.duration_ms, y + laneH - 4, 3,
            { class: 'gc-span', fill: GEN_COLORS[gen], opacity: 0.45 });
          setTip(span, function () { return 'GC #' + g.number + ' (' + gcName(g) + ') running in the background'; },
            function () { return gcTip(g); });
          plot.appendChild(span);
        }
        var r = spanRect(x, g.pause_start_relative_ms, g.pause_start_relative_ms + (g.pause_duration_ms || 0),
          y + 2, laneH - 8, { class: 'mark gc-pause' + (g.is_complete ? '' : ' incomplete'), fill: GEN_COLORS[gen],
            'data-number': g.number });
        setTip(r, function () { return 'GC #' + g.number + ' · ' + gcName(g) + ' · ' + ms(g.pause_duration_ms) + ' paused'; },
          function () { return gcTip(g); });
        plot.appendChild(r);
      });
    });
    sec.appendChild(legend([{ color: GEN_COLORS[0], label: 'Gen 0' }, { color: GEN_COLORS[1], label: 'Gen 1' },
      { color: GEN_COLORS[2], label: 'Gen 2' }, { color: '#888', label: 'background GC running', line: true }]));

    sec.appendChild(h('h3', { text: 'Summary per generation' }));
    var sumCols = [
      multi ? { key: 'pid', label: 'Process', num: true } : null,
      { key: 'generation', label: 'Gen', fmt: function (v) { return v === 'all' ? 'All' : String(v); },
        chip: function (r) { return r.generation === 'all' ? null : GEN_COLORS[Number(r.generation)]; } },
      { key: 'count', label: 'Count', num: true, fmt: count },
      { key: 'num_induced', label: 'Induced', num: true, fmt: count },
      { key: 'max_pause_duration_ms', label: 'Max pause ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'mean_pause_duration_ms', label: 'Mean pause ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'total_pause_time_ms', label: 'Total pause ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'gc_pause_time_percentage', label: '% time paused', num: true, fmt: pct,
        title: 'total pause over the time from the first pause to the last GC/HeapStats' },
      { key: 'max_suspend_duration_ms', label: 'Max suspend ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'total_allocated_mb', label: 'Allocated MB', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'total_promoted_mb', label: 'Promoted MB', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'mean_size_after_mb', label: 'Mean size after MB', num: true, fmt: function (v) { return fixed(v, 3); } }
    ].filter(Boolean);
    var per = sum.filter(function (r) { return r.generation !== 'all'; });
    sec.appendChild(dataTable(sumCols, per, { all: true, total: multi ? null : all[0] }));
    if (multi) sec.appendChild(dataTable(sumCols, all, { all: true }));

    sec.appendChild(h('h3', { text: 'Every GC' }));
    var d3 = function (v) { return fixed(v, 3); };
    var sizeFmt = function (v) { return isNum(v) && v >= 0 ? fixed(v, 3) : '–'; };
    var gcCols = [
      { key: 'number', label: 'GC', num: true },
      multi ? { key: 'pid', label: 'Process', num: true } : null,
      { key: 'generation', label: 'Gen', value: gcName, chip: function (r) { return GEN_COLORS[genOf(r)]; },
        title: 'generation; N blocking, B background, F foreground; I induced, i induced not forced' },
      { key: 'reason', label: 'Reason' },
      { key: 'pause_start_relative_ms', label: 'Pause start ms', num: true, fmt: d3 },
      { key: 'suspend_duration_ms', label: 'Suspend ms', num: true, fmt: d3 },
      { key: 'pause_duration_ms', label: 'Pause ms', num: true, fmt: d3 },
      { key: 'pause_time_percentage_since_last_gc', label: '% pause', num: true, fmt: function (v) { return fixed(v, 1); },
        title: 'pause time as a percentage of the time since the last GC' },
      { key: 'duration_ms', label: 'GC ms', num: true, fmt: d3 },
      { key: 'alloced_since_last_gc_mb', label: 'Alloc MB', num: true, fmt: d3 },
      { key: 'heap_size_before_mb', label: 'Before MB', num: true, fmt: d3 },
      { key: 'heap_size_after_mb', label: 'After MB', num: true, fmt: sizeFmt },
      { key: 'promoted_mb', label: 'Promoted MB', num: true, fmt: sizeFmt },
      { key: 'gen0_size_after_mb', label: 'Gen0 MB', num: true, fmt: d3 },
      { key: 'gen1_size_after_mb', label: 'Gen1 MB', num: true, fmt: d3 },
      { key: 'gen2_size_after_mb', label: 'Gen2 MB', num: true, fmt: d3 },
      { key: 'loh_size_after_mb', label: 'LOH MB', num: true, fmt: d3 },
      { key: 'poh_size_after_mb', label: 'POH MB', num: true, fmt: d3 },
      { key: 'is_complete', label: 'Complete', fmt: function (v) { return v ? 'yes' : 'no'; } }
    ].filter(Boolean);
    sec.appendChild(dataTable(gcCols, gcs, { rowCount: a.tables.gc.rowCount, id: 'gc-table' }));
    sec.appendChild(readNote(a));
    return sec;
  }

  /* The heap over time: its size before and after each GC, and what each generation held after it. */
  function renderHeap(a) {
    var gcs = a.tables.gc ? a.tables.gc.rows : [];
    var sec = section('heap', 'Heap size');
    var sized = gcs.filter(function (g) { return isNum(g.heap_size_after_mb) && g.heap_size_after_mb >= 0; });
    if (!sized.length) {
      sec.appendChild(h('p', { class: 'empty', text: gcs.length ? 'No GC of this window has its GC/HeapStats.' :
        'No GC in this window: the heap\u2019s size is known at GCs only.' }));
      return sec;
    }
    var peak = 0;
    sized.forEach(function (g) {
      peak = Math.max(peak, g.heap_size_before_mb || 0, g.heap_size_after_mb);
    });
    var last = sized[sized.length - 1];
    sec.appendChild(h('p', { class: 'lead' }, 'Largest size at a GC ', h('b', { text: mb(peak) }), '; after the last GC ',
      h('b', { text: mb(last.heap_size_after_mb) }), '. Known at GCs only: before each pause and after it.'));
    var holder = h('div', { class: 'chart', id: 'heap-chart' });
    sec.appendChild(holder);
    var byPid = {};
    sized.forEach(function (g) { (byPid[g.pid] = byPid[g.pid] || []).push(g); });
    var plotH = 200;
    timeChart(holder, plotH, function (svg, plot, x, width) {
      var y = linear(0, peak * 1.08 || 1, MARGIN.top + plotH, MARGIN.top);
      var yt = ticks(0, peak * 1.08 || 1, 5);
      var grid = s('g', { class: 'grid' }), axis = s('g', { class: 'axis' });
      yt.forEach(function (v) {
        grid.appendChild(s('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(v), y2: y(v) }));
        axis.appendChild(s('text', { x: MARGIN.left - 8, y: y(v) + 4, 'text-anchor': 'end', text: tickLabel(v, yt.step) }));
      });
      var lx = MARGIN.left - 52;
      axis.appendChild(s('text', { class: 'axis-label', x: lx, y: MARGIN.top + plotH / 2, 'text-anchor': 'middle',
        transform: 'rotate(-90 ' + lx + ' ' + (MARGIN.top + plotH / 2) + ')', text: 'MB' }));
      svg.insertBefore(grid, plot);
      svg.appendChild(axis);
      var end = view[1];
      Object.keys(byPid).forEach(function (pid) {
        var list = byPid[pid];
        /* the generations after each GC, held until the next one's pause: stacked steps */
        var bands = [0, 1, 2, 3, 4].map(function () { return []; });
        list.forEach(function (g, i) {
          var t0 = g.pause_start_relative_ms + (g.pause_duration_ms || 0);
          var t1 = i + 1 < list.length ? list[i + 1].pause_start_relative_ms : end;
          var base = 0;
          for (var k = 0; k < 5; k++) {
            var v = g[['gen0_size_after_mb', 'gen1_size_after_mb', 'gen2_size_after_mb', 'loh_size_after_mb',
              'poh_size_after_mb'][k]];
            var top = base + (isNum(v) ? v : 0);
            bands[k].push([t0, t1, base, top]);
            base = top;
          }
        });
        bands.forEach(function (b, k) {
          if (!b.some(function (q) { return q[3] > q[2]; })) return;
          var upper = [], lower = [];
          b.forEach(function (q) { upper.push([x(q[0]), y(q[3])], [x(q[1]), y(q[3])]); });
          b.slice().reverse().forEach(function (q) { lower.push([x(q[1]), y(q[2])], [x(q[0]), y(q[2])]); });
          plot.appendChild(s('path', { class: 'heap-area', fill: GEN_COLORS[k], d: 'M' + upper.concat(lower)
            .map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join('L') + 'Z' }));
        });
        /* the size: before each pause, after it, and growing in between */
        var pts = [];
        list.forEach(function (g) {
          var t0 = g.pause_start_relative_ms, t1 = t0 + (g.pause_duration_ms || 0);
          if (isNum(g.heap_size_before_mb) && g.heap_size_before_mb > 0) pts.push([x(t0), y(g.heap_size_before_mb)]);
          pts.push([x(t1), y(g.heap_size_after_mb)]);
        });
        plot.appendChild(s('path', { class: 'heap-line', d: 'M' + pts.map(function (p) {
          return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join('L') }));
        list.forEach(function (g) {
          var c = s('circle', { class: 'mark heap-point', cx: x(g.pause_start_relative_ms + (g.pause_duration_ms || 0)),
            cy: y(g.heap_size_after_mb), r: 3.2, fill: GEN_COLORS[genOf(g)], stroke: '#fff', 'stroke-width': 1 });
          setTip(c, 'After GC #' + g.number + ' (' + gcName(g) + ')', function () { return [['Heap before', mb(g.heap_size_before_mb)],
            ['Heap after', mb(g.heap_size_after_mb)], ['Gen 0', mb(g.gen0_size_after_mb)],
            ['Gen 1', mb(g.gen1_size_after_mb)], ['Gen 2', mb(g.gen2_size_after_mb)],
            ['LOH', mb(g.loh_size_after_mb)], ['POH', mb(g.poh_size_after_mb)], ['Promoted', mb(g.promoted_mb)],
            ['At', ms(g.pause_start_relative_ms + (g.pause_duration_ms || 0))]]; });
          plot.appendChild(c);
        });
      });
    });
    sec.appendChild(legend([{ color: '#1d2330', label: 'heap size (before and after each GC)', line: true }]
      .concat(GEN_NAMES.map(function (n, k) { return { color: GEN_COLORS[k], label: n + ' after', opacity: 0.5 }; }))
      .concat([{ color: '#4e79a7', label: 'a point per GC, coloured by its generation' }])));
    return sec;
  }

  /* Lanes for spans that overlap: each goes to the first lane free at its start (spans sorted by start). */
  function packLanes(spans) {
    var ends = [];
    spans.forEach(function (sp) {
      var lane = 0;
      while (lane < ends.length && ends[lane] > sp.t0) lane++;
      ends[lane] = sp.t1;
      sp.lane = lane;
    });
    return ends.length;
  }

  function colorMap(keys) {
    var m = {}, n = 0;
    keys.forEach(function (k) { if (!(k in m)) m[k] = PALETTE[n++ % PALETTE.length]; });
    return m;
  }

  function renderContention(a) {
    var sec = section('contention', 'Lock contention');
    var locks = a.tables.contention_locks ? a.tables.contention_locks.rows : [];
    var pairs = a.tables.contention ? a.tables.contention.rows : [];
    var waits = a.tables.contention_waits ? a.tables.contention_waits.rows : [];
    if (!locks.length && !waits.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No contended lock in this window. The analysis needs the ' +
        'runtime\u2019s Contention events (keyword 0x4000).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var totalWait = locks.reduce(function (acc, r) { return acc + (r.total_wait_ms || 0); }, 0);
    var nw = locks.reduce(function (acc, r) { return acc + (r.count || 0); }, 0);
    sec.appendChild(h('p', { class: 'lead' }, h('b', { text: count(nw) }), ' waits for ', h('b', { text: count(locks.length) }),
      locks.length === 1 ? ' lock, ' : ' locks, ', h('b', { text: ms(totalWait) }), ' waited in all.'));
    var colors = colorMap(locks.map(function (r) { return String(r.lock_id); }));
    if (waits.length) {
      var threads = [];
      waits.forEach(function (w) { if (threads.indexOf(w.thread) < 0) threads.push(w.thread); });
      threads.sort(function (p, q) { return Number(p) - Number(q); });
      var laneH = 16, gap = 4;
      waits.forEach(function (w) { widenView(w.start_relative_ms, w.start_relative_ms + (w.duration_ms || 0)); });
      sec.appendChild(zoomBar());
      sec.appendChild(h('div', { class: 'title', text: 'Waits by thread (a bar per wait, coloured by its lock)' }));
      var holder = h('div', { class: 'chart', id: 'contention-waits' });
      sec.appendChild(holder);
      timeChart(holder, threads.length * (laneH + gap) - gap, function (svg, plot, x, width) {
        laneLabels(svg, width, threads.map(function (t) { return 'thread ' + t; }), laneH, gap);
        waits.forEach(function (w) {
          var lane = threads.indexOf(w.thread), y = MARGIN.top + lane * (laneH + gap);
          var end = w.is_complete ? w.start_relative_ms + (w.duration_ms || 0) : view[1];
          var r = spanRect(x, w.start_relative_ms, end, y + 2, laneH - 4, { class: 'mark wait' +
            (w.is_complete ? '' : ' incomplete'), fill: colors[String(w.lock_id)] || PALETTE[0] });
          setTip(r, 'Wait of thread ' + w.thread + ' for lock ' + w.lock_id, function () { return [['Start', ms(w.start_relative_ms)],
            ['Waited', w.is_complete ? ms(w.duration_ms) : 'no stop found'], ['Lock owner thread',
            w.lock_owner_thread === null || w.lock_owner_thread === undefined ? '–' : String(w.lock_owner_thread)],
            ['Kind', String(w.kind)], ['Process', String(w.pid)]]; });
          plot.appendChild(r);
        });
      });
      if (a.tables.contention_waits.rowCount > waits.length)
        sec.appendChild(h('p', { class: 'note', text: 'The chart shows the first ' + count(waits.length) + ' of ' +
          count(a.tables.contention_waits.rowCount) + ' waits (ntidx report --rows).' }));
    }
    var d3 = function (v) { return fixed(v, 3); };
    var lockChip = function (r) { return colors[String(r.lock_id)]; };
    sec.appendChild(h('h3', { text: 'Locks' }));
    sec.appendChild(dataTable([
      { key: 'lock_id', label: 'Lock', cls: 'mono', chip: lockChip, title: 'LockID (.NET 8 and later; 0 before)' },
      { key: 'thread_count', label: 'Threads', num: true, fmt: count },
      { key: 'count', label: 'Waits', num: true, fmt: count },
      { key: 'total_wait_ms', label: 'Total ms', num: true, fmt: d3 },
      { key: 'max_wait_ms', label: 'Max ms', num: true, fmt: d3 },
      { key: 'mean_wait_ms', label: 'Mean ms', num: true, fmt: d3 },
      { key: 'incomplete', label: 'Incomplete', num: true, fmt: count }
    ], locks, { rowCount: a.tables.contention_locks.rowCount }));
    sec.appendChild(h('h3', { text: 'Locks by thread' }));
    sec.appendChild(dataTable([
      { key: 'lock_id', label: 'Lock', cls: 'mono', chip: lockChip },
      { key: 'thread', label: 'Thread', num: true },
      { key: 'count', label: 'Waits', num: true, fmt: count },
      { key: 'total_wait_ms', label: 'Total ms', num: true, fmt: d3 },
      { key: 'max_wait_ms', label: 'Max ms', num: true, fmt: d3 },
      { key: 'mean_wait_ms', label: 'Mean ms', num: true, fmt: d3 },
      { key: 'incomplete', label: 'Incomplete', num: true, fmt: count }
    ], pairs, { rowCount: a.tables.contention ? a.tables.contention.rowCount : 0 }));
    sec.appendChild(readNote(a));
    return sec;
  }

  function renderActivities(a) {
    var sec = section('activities', 'Activities');
    var acts = a.tables.activities ? a.tables.activities.rows : [];
    var sum = a.tables.activities_summary ? a.tables.activities_summary.rows : [];
    if (!acts.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No activity in this window: no EventSource Start/Stop pair.' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var kind = function (r) { return r.provider + '/' + r.name; };
    var colors = colorMap(sum.map(kind).concat(acts.map(kind)));
    var open = acts.filter(function (r) { return !r.is_complete; }).length;
    sec.appendChild(h('p', { class: 'lead' }, h('b', { text: count(a.tables.activities.rowCount) }), ' activities of ',
      h('b', { text: count(sum.length) }), sum.length === 1 ? ' kind' : ' kinds',
      open ? [', ', h('b', { text: count(open) }), ' without their Stop'] : '', '.'));
    acts.forEach(function (r) { widenView(r.start_relative_ms, r.start_relative_ms + (r.duration_ms || 0)); });
    var spans = acts.map(function (r) {
      return { r: r, t0: r.start_relative_ms, t1: r.is_complete ? r.start_relative_ms + (r.duration_ms || 0) : Infinity };
    });
    spans.sort(function (p, q) { return p.t0 - q.t0; });
    var lanes = packLanes(spans);
    var laneH = 14, gap = 3;
    sec.appendChild(zoomBar());
    sec.appendChild(h('div', { class: 'title', text: 'Activities over time (a bar per activity, coloured by its kind; ' +
      'overlapping ones on separate rows)' }));
    var holder = h('div', { class: 'chart', id: 'activities-chart' });
    sec.appendChild(holder);
    timeChart(holder, lanes * (laneH + gap) - gap, function (svg, plot, x) {
      spans.forEach(function (sp) {
        var r = sp.r, y = MARGIN.top + sp.lane * (laneH + gap);
        var end = r.is_complete ? r.start_relative_ms + (r.duration_ms || 0) : view[1];
        var m = spanRect(x, r.start_relative_ms, end, y, laneH, { class: 'mark activity' +
          (r.is_complete ? '' : ' incomplete'), fill: colors[kind(r)], opacity: r.is_complete ? 1 : 0.55 });
        setTip(m, kind(r), function () { return [['Activity', String(r.activity_path || r.activity_id)], ['Start', ms(r.start_relative_ms)],
          ['Duration', r.is_complete ? ms(r.duration_ms) : 'no Stop found'], ['Thread', String(r.thread)],
          ['Depth', String(r.depth)], ['Parent', r.parent_activity_id ? String(r.parent_activity_id) : '–']]; });
        plot.appendChild(m);
      });
    });
    sec.appendChild(legend(Object.keys(colors).map(function (k) { return { color: colors[k], label: k }; })));
    var d3 = function (v) { return fixed(v, 3); };
    sec.appendChild(h('h3', { text: 'Summary per kind' }));
    sec.appendChild(dataTable([
      { key: 'provider', label: 'Provider', chip: function (r) { return colors[kind(r)]; } },
      { key: 'name', label: 'Name' },
      { key: 'count', label: 'Count', num: true, fmt: count },
      { key: 'incomplete', label: 'Incomplete', num: true, fmt: count },
      { key: 'total_duration_ms', label: 'Total ms', num: true, fmt: d3 },
      { key: 'mean_duration_ms', label: 'Mean ms', num: true, fmt: d3 },
      { key: 'max_duration_ms', label: 'Max ms', num: true, fmt: d3 }
    ], sum, { all: true }));
    sec.appendChild(h('h3', { text: 'Every activity' }));
    sec.appendChild(dataTable([
      { key: 'start_relative_ms', label: 'Start ms', num: true, fmt: d3 },
      { key: 'duration_ms', label: 'Duration ms', num: true,
        fmt: function (v, r) { return r.is_complete ? fixed(v, 3) : 'incomplete'; } },
      { key: 'thread', label: 'Thread', num: true },
      { key: 'name', label: 'Activity', value: function (r) { return '\u2003'.repeat(Math.min(r.depth || 0, 12)) + kind(r); },
        chip: function (r) { return colors[kind(r)]; } },
      { key: 'activity_path', label: 'Id', cls: 'mono', value: function (r) { return r.activity_path || r.activity_id; } }
    ], acts, { rowCount: a.tables.activities.rowCount }));
    sec.appendChild(readNote(a));
    return sec;
  }

  /* Horizontal bars, one per item ({label, value, color, tip: [title, rows]}), the longest first as given. */
  function barChart(holder, items, cls, valueText) {
    holder.textContent = '';
    var width = Math.max(480, holder.clientWidth || 900);
    var rowH = 20, labelW = Math.min(460, Math.round(width * 0.42)), right = 90;
    var total = items.length * rowH + 6;
    var svg = s('svg', { width: width, height: total, viewBox: '0 0 ' + width + ' ' + total });
    var max = items.reduce(function (m, it) { return Math.max(m, it.value); }, 0) || 1;
    var x = linear(0, max, labelW + 8, width - right);
    items.forEach(function (it, i) {
      var y = 3 + i * rowH;
      if (it.behind !== undefined)
        svg.appendChild(s('rect', { x: labelW + 8, y: y + 3, width: Math.max(0, x(it.behind) - labelW - 8), height: rowH - 6,
          fill: it.color, opacity: 0.25 }));
      var r = s('rect', { class: 'mark ' + cls, x: labelW + 8, y: y + 3, width: Math.max(1, x(it.value) - labelW - 8),
        height: rowH - 6, fill: it.color });
      if (it.tip) setTip(r, it.tip[0], it.tip[1]);
      svg.appendChild(r);
      var label = it.label.length > 70 ? '…' + it.label.slice(it.label.length - 69) : it.label;
      var t = s('text', { class: 'lane', x: labelW, y: y + rowH / 2 + 4, 'text-anchor': 'end', text: label });
      if (it.tip) setTip(t, it.tip[0], it.tip[1]);
      svg.appendChild(t);
      svg.appendChild(s('text', { x: Math.max(x(it.value), x(it.behind || 0)) + 6, y: y + rowH / 2 + 4, text: valueText(it) }));
    });
    holder.appendChild(svg);
    /* labels longer than their room: cut from the left, where a method's namespace is */
    Array.prototype.forEach.call(svg.querySelectorAll('text.lane'), function (t) {
      var full = t.textContent;
      while (t.getComputedTextLength && t.getComputedTextLength() > labelW - 4 && t.textContent.length > 8)
        t.textContent = '…' + t.textContent.slice(3);
      if (t.textContent !== full) t.appendChild(s('title', { text: full }));
    });
  }

  /* Redrawn with the page's width, like the time charts. */
  function staticChart(holder, draw) {
    var c = { draw: function () { draw(holder); }, staticWidth: true };
    timeCharts.push(c);
    return c;
  }

  var TOP = 15; /* bars of the top-N charts */

  function moduleOf(method) {
    var i = String(method).indexOf('!');
    return i < 0 ? '' : method.slice(0, i);
  }

  /* A warm colour per module, as flame graphs colour them; grey for frames no method covers. */
  function flameColor(method) {
    if (method === '?!?' || !moduleOf(method)) return '#b7b0a8';
    var hash = function (t) { var x = 0; for (var i = 0; i < t.length; i++) x = (x * 31 + t.charCodeAt(i)) | 0; return Math.abs(x); };
    /* the module picks the hue, the method a shade of it: neighbours stay apart */
    var hm = hash(moduleOf(method)), hf = hash(method);
    var hue = 6 + (hm % 40) + (hf % 7) - 3, light = 54 + (hf >> 3) % 14;
    return 'hsl(' + hue + ',80%,' + light + '%)';
  }

  function renderCpu(a) {
    var sec = section('cpu', 'CPU');
    var methods = a.tables.cpu ? a.tables.cpu.rows : [];
    var sum = a.tables.cpu_summary && a.tables.cpu_summary.rows[0];
    if (!sum || !sum.samples) {
      sec.appendChild(h('p', { class: 'empty', text: 'No CPU sample in this window. The analysis needs the sample ' +
        'profiler\u2019s events (provider Microsoft-DotNETCore-SampleProfiler).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var samples = sum.samples;
    sec.appendChild(h('p', { class: 'lead' }, h('b', { text: count(samples) }), ' samples (', h('b', { text: ms(sum.total_ms) }),
      ' at ' + fixed(sum.interval_ms, 0) + ' ms each) on ', h('b', { text: count(sum.threads) }),
      sum.threads === 1 ? ' thread' : ' threads', ', in ', h('b', { text: count(a.tables.cpu.rowCount) }), ' methods.'));
    var top = methods.slice().sort(function (p, q) { return q.exclusive - p.exclusive; }).slice(0, TOP);
    sec.appendChild(h('div', { class: 'title', text: 'Top methods by exclusive samples (the light bar: inclusive)' }));
    var holder = h('div', { class: 'chart', id: 'cpu-top' });
    sec.appendChild(holder);
    staticChart(holder, function (el) {
      barChart(el, top.map(function (m) {
        return { label: m.method, value: m.exclusive, behind: m.inclusive, color: flameColor(m.method),
          tip: [m.method, [['Exclusive', count(m.exclusive) + ' samples, ' + pct(m.exclusive_percent)],
            ['Inclusive', count(m.inclusive) + ' samples, ' + pct(m.inclusive_percent)]]] };
      }), 'cpu-bar', function (it) { return count(it.value) + ' / ' + count(it.behind); });
    });
    var tree = a.tables.cpu_tree;
    sec.appendChild(h('h3', { text: 'Flame graph' }));
    if (tree && tree.rows.length) {
      sec.appendChild(h('div', { class: 'title', text: 'Stacks of the window\u2019s samples, the outermost frame at the ' +
        'bottom, callees above their caller, the heaviest first; a frame\u2019s width is its inclusive samples. ' +
        'Click a frame to zoom into it, the bottom bar to go back.' }));
      var fh = h('div', { class: 'chart', id: 'flame-graph' });
      sec.appendChild(fh);
      staticChart(fh, function (el) { flameGraph(el, tree, samples - (sum.samples_without_stack || 0)); });
      if (tree.rowCount > tree.rows.length)
        sec.appendChild(h('p', { class: 'note', text: 'The page holds the ' + count(tree.rows.length) + ' heaviest of ' +
          count(tree.rowCount) + ' frames of the call tree (ntidx report --rows).' }));
    } else {
      sec.appendChild(h('p', { class: 'empty', text: 'No call tree: the CPU analysis of this build of the library gives ' +
        'no table cpu_tree.' }));
    }
    sec.appendChild(h('h3', { text: 'Methods' }));
    sec.appendChild(dataTable([
      { key: 'method', label: 'Method', chip: function (r) { return flameColor(r.method); } },
      a.tables.cpu.columns.some(function (c) { return c.name === 'thread'; }) ? { key: 'thread', label: 'Thread', num: true } : null,
      { key: 'exclusive', label: 'Exclusive samples', num: true, fmt: count },
      { key: 'exclusive_percent', label: 'Exclusive %', num: true, fmt: pct },
      { key: 'inclusive', label: 'Inclusive samples', num: true, fmt: count },
      { key: 'inclusive_percent', label: 'Inclusive %', num: true, fmt: pct }
    ].filter(Boolean), methods, { rowCount: a.tables.cpu.rowCount }));
    sec.appendChild(readNote(a));
    return sec;
  }

  /*
   * The call tree's rows (node, parent: -1 for an outermost frame, method, inclusive, exclusive) as a flame
   * graph under one bar for all the samples with a stack; `focus` (a node, or null) fills the width.
   */
  function flameGraph(holder, tree, total) {
    var rows = tree.rows, kids = {}, byNode = {}, maxDepth = 0;
    rows.forEach(function (r) {
      byNode[r.node] = r;
      (kids[r.parent] = kids[r.parent] || []).push(r);
    });
    Object.keys(kids).forEach(function (k) { kids[k].sort(function (p, q) { return q.inclusive - p.inclusive; }); });
    function depthOf(r) { var d = 0; while (r && r.parent >= 0) { d++; r = byNode[r.parent]; } return d; }
    rows.forEach(function (r) { maxDepth = Math.max(maxDepth, depthOf(r)); });
    var focus = holder.__focus !== undefined ? holder.__focus : -1;
    holder.textContent = '';
    var width = Math.max(480, holder.clientWidth || 900), rowH = 18;
    var height = (maxDepth + 2) * rowH + 4;
    var svg = s('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height });
    var base = focus >= 0 && byNode[focus] ? byNode[focus] : null;
    var span = base ? base.inclusive : total;
    var x = linear(0, span || 1, 0, width);
    var yOf = function (d) { return height - (d + 1) * rowH - 2; };
    /* the ancestors of the focus keep the full width, as a path back */
    var path = [];
    for (var p = base; p; p = p.parent >= 0 ? byNode[p.parent] : null) path.unshift(p);
    function bar(r, x0, w, d, cls) {
      var g = s('g');
      var rect = s('rect', { class: cls, x: x0, y: yOf(d), width: Math.max(0, w - 0.5), height: rowH - 1,
        fill: r ? flameColor(r.method) : '#8d96a5', rx: 1.5 });
      g.appendChild(rect);
      var name = r ? r.method : 'all samples';
      if (w > 36) {
        var chars = Math.floor((w - 8) / 6.4);
        var text = name.length > chars ? name.slice(0, Math.max(1, chars - 1)) + '…' : name;
        g.appendChild(s('text', { class: 'flame-label' + (r ? ' dark' : ''), x: x0 + 4, y: yOf(d) + rowH - 5, text: text }));
      }
      var inc = r ? r.inclusive : total;
      setTip(g, name, function () { return [['Inclusive', count(inc) + ' samples, ' + pct(inc * 100 / (total || 1)) + ' of all'],
        r ? ['Exclusive', count(r.exclusive) + ' samples'] : null, r ? ['Depth', String(depthOf(r))] : null]; });
      g.addEventListener('click', function () { holder.__focus = r ? r.node : -1; flameGraph(holder, tree, total); });
      g.style.cursor = 'pointer';
      svg.appendChild(g);
    }
    bar(null, 0, width, 0, 'flame-root');
    path.forEach(function (r, i) { if (i < path.length - 1) bar(r, 0, width, depthOf(r) + 1, 'flame-node flame-path'); });
    function lay(list, x0, d) {
      list.forEach(function (r) {
        var w = x(r.inclusive) - x(0);
        bar(r, x0, w, d, 'flame-node');
        if (kids[r.node]) lay(kids[r.node], x0, d + 1);
        x0 += w;
      });
    }
    if (base) lay([base], 0, depthOf(base) + 1);
    else lay(kids[-1] || [], 0, 1);
    holder.appendChild(svg);
  }

  function renderJit(a) {
    var sec = section('jit', 'JIT');
    var jit = a.tables.jit ? a.tables.jit.rows : [];
    var sum = a.tables.jit_summary ? a.tables.jit_summary.rows : [];
    if (!jit.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No method JIT-compiled in this window. The analysis needs the ' +
        'runtime\u2019s JIT events (keyword 0x10, level 5: verbose).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var all = sum.filter(function (r) { return r.optimization_tier === 'all'; });
    var tiers = [];
    jit.forEach(function (r) { if (tiers.indexOf(r.optimization_tier) < 0) tiers.push(r.optimization_tier); });
    var colors = colorMap(tiers);
    var lead = h('p', { class: 'lead' }, h('b', { text: count(a.tables.jit.rowCount) }), ' compilations');
    if (all.length === 1)
      append(lead, [', ', h('b', { text: ms(all[0].total_jit_time_ms) }), ' of JIT time (',
        h('b', { text: ms(all[0].total_foreground_jit_time_ms) }), ' on the threads that needed the code, ',
        h('b', { text: ms(all[0].total_background_tiered_compilation_jit_time_ms) }), ' tiering up in the background)']);
    append(lead, '.');
    sec.appendChild(lead);
    jit.forEach(function (r) { widenView(r.start_relative_ms, r.start_relative_ms + (r.jit_time_ms || 0)); });
    sec.appendChild(zoomBar());
    sec.appendChild(h('div', { class: 'title', text: 'Compilations over time by optimization tier (a bar per method, ' +
      'as long as its JIT time)' }));
    var holder = h('div', { class: 'chart', id: 'jit-chart' });
    sec.appendChild(holder);
    var laneH = 16, gap = 4;
    timeChart(holder, tiers.length * (laneH + gap) - gap, function (svg, plot, x, width) {
      laneLabels(svg, width, tiers, laneH, gap);
      jit.forEach(function (r) {
        var lane = tiers.indexOf(r.optimization_tier), y = MARGIN.top + lane * (laneH + gap);
        var m = spanRect(x, r.start_relative_ms, r.start_relative_ms + (r.jit_time_ms || 0), y + 2, laneH - 4,
          { class: 'mark jit-bar' + (r.is_complete === false ? ' incomplete' : ''), fill: colors[r.optimization_tier] });
        setTip(m, r.method_name, function () { return [['Tier', String(r.optimization_tier)], ['Start', ms(r.start_relative_ms)],
          ['JIT time', ms(r.jit_time_ms)], ['IL size', count(r.il_size) + ' bytes'],
          ['Native size', count(r.native_size) + ' bytes'], ['Thread', String(r.thread)],
          r.compilation_thread_kind ? ['Compiled', String(r.compilation_thread_kind)] : null]; });
        plot.appendChild(m);
      });
    });
    var d3 = function (v) { return fixed(v, 3); };
    sec.appendChild(h('h3', { text: 'Per optimization tier' }));
    var per = sum.filter(function (r) { return r.optimization_tier !== 'all'; });
    sec.appendChild(dataTable([
      { key: 'optimization_tier', label: 'Tier', chip: function (r) { return colors[r.optimization_tier]; },
        fmt: function (v) { return v === 'all' ? 'All' : String(v); } },
      { key: 'count', label: 'Methods', num: true, fmt: count },
      { key: 'total_jit_time_ms', label: 'JIT ms', num: true, fmt: d3 },
      { key: 'total_il_size', label: 'IL bytes', num: true, fmt: count },
      { key: 'total_native_size', label: 'Native bytes', num: true, fmt: count },
      { key: 'count_foreground', label: 'Foreground', num: true, fmt: count },
      { key: 'total_foreground_jit_time_ms', label: 'Foreground ms', num: true, fmt: d3 },
      { key: 'count_background_tiered_compilation', label: 'Background', num: true, fmt: count },
      { key: 'total_background_tiered_compilation_jit_time_ms', label: 'Background ms', num: true, fmt: d3 }
    ], per, { all: true, total: all.length === 1 ? all[0] : null }));
    sec.appendChild(h('h3', { text: 'Every compilation (the longest first)' }));
    sec.appendChild(dataTable([
      { key: 'method_name', label: 'Method', chip: function (r) { return colors[r.optimization_tier]; } },
      { key: 'optimization_tier', label: 'Tier' },
      { key: 'jit_time_ms', label: 'JIT ms', num: true, fmt: d3 },
      { key: 'il_size', label: 'IL bytes', num: true, fmt: count },
      { key: 'native_size', label: 'Native bytes', num: true, fmt: count },
      { key: 'start_relative_ms', label: 'Start ms', num: true, fmt: d3 },
      { key: 'thread', label: 'Thread', num: true }
    ], jit.slice().sort(function (p, q) { return (q.jit_time_ms || 0) - (p.jit_time_ms || 0); }),
    { rowCount: a.tables.jit.rowCount }));
    sec.appendChild(readNote(a));
    return sec;
  }

  var KIND_COLORS = { Small: '#4e79a7', Large: '#e15759', Pinned: '#59a14f' };
  function renderAlloc(a) {
    var sec = section('alloc', 'Allocations');
    var rows = a.tables.alloc ? a.tables.alloc.rows : [];
    var sum = a.tables.alloc_summary ? a.tables.alloc_summary.rows : [];
    if (!rows.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No allocation tick in this window. The analysis needs the ' +
        'runtime\u2019s GC/AllocationTick events (keyword 0x1, level 5: verbose).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var all = sum.filter(function (r) { return r.kind === 'all'; });
    var lead = h('p', { class: 'lead' }, 'Sampled by the runtime about every 100 kB: ');
    if (all.length === 1)
      append(lead, [h('b', { text: count(all[0].count) }), ' allocation ticks, ', h('b', { text: bytes(all[0].bytes) }),
        ', of ', h('b', { text: count(all[0].type_count) }), ' types.']);
    sec.appendChild(lead);
    var top = rows.slice().sort(function (p, q) { return q.bytes - p.bytes; }).slice(0, TOP);
    sec.appendChild(h('div', { class: 'title', text: 'Top types by sampled bytes, coloured by heap' }));
    var holder = h('div', { class: 'chart', id: 'alloc-chart' });
    sec.appendChild(holder);
    staticChart(holder, function (el) {
      barChart(el, top.map(function (r) {
        return { label: r.type_name, value: r.bytes, color: KIND_COLORS[r.kind] || PALETTE[5],
          tip: [r.type_name, [['Heap', String(r.kind)], ['Sampled', bytes(r.bytes)], ['Ticks', count(r.count)],
            ['First', ms(r.first_relative_ms)], ['Last', ms(r.last_relative_ms)]]] };
      }), 'alloc-bar', function (it) { return bytes(it.value); });
    });
    sec.appendChild(legend(Object.keys(KIND_COLORS).map(function (k) {
      return { color: KIND_COLORS[k], label: k === 'Small' ? 'small object heap' : k === 'Large' ? 'large object heap' :
        'pinned object heap' };
    })));
    sec.appendChild(h('h3', { text: 'Per heap' }));
    sec.appendChild(dataTable([
      { key: 'kind', label: 'Heap', chip: function (r) { return KIND_COLORS[r.kind]; },
        fmt: function (v) { return v === 'all' ? 'All' : String(v); } },
      { key: 'count', label: 'Ticks', num: true, fmt: count },
      { key: 'bytes', label: 'Sampled bytes', num: true, fmt: count },
      { key: 'type_count', label: 'Types', num: true, fmt: count }
    ], sum.filter(function (r) { return r.kind !== 'all'; }), { all: true, total: all.length === 1 ? all[0] : null }));
    sec.appendChild(h('h3', { text: 'Per type' }));
    sec.appendChild(dataTable([
      { key: 'type_name', label: 'Type', chip: function (r) { return KIND_COLORS[r.kind]; } },
      { key: 'kind', label: 'Heap' },
      { key: 'count', label: 'Ticks', num: true, fmt: count },
      { key: 'bytes', label: 'Sampled bytes', num: true, fmt: count },
      { key: 'first_relative_ms', label: 'First ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'last_relative_ms', label: 'Last ms', num: true, fmt: function (v) { return fixed(v, 3); } }
    ], rows, { rowCount: a.tables.alloc.rowCount }));
    sec.appendChild(readNote(a));
    return sec;
  }

  function renderExceptions(a) {
    var sec = section('exceptions', 'Exceptions');
    var rows = a.tables.exceptions ? a.tables.exceptions.rows : [];
    if (!rows.length) {
      sec.appendChild(h('p', { class: 'empty', text: 'No exception thrown in this window (or the trace lacks the ' +
        'runtime\u2019s Exception events, keyword 0x8000).' }));
      sec.appendChild(readNote(a));
      return sec;
    }
    var byType = {}, types = [];
    rows.forEach(function (r) {
      if (!(r.type in byType)) { byType[r.type] = { type: r.type, count: 0, messages: 0, first: r.first_relative_ms };
        types.push(byType[r.type]); }
      var t = byType[r.type];
      t.count += r.count || 0;
      t.messages++;
      t.first = Math.min(t.first, r.first_relative_ms);
    });
    var thrown = types.reduce(function (acc, t) { return acc + t.count; }, 0);
    /* the analysis has no summary table: with rows left out (--rows) the counts are of the rows the page holds */
    var partial = a.tables.exceptions.rowCount > rows.length;
    sec.appendChild(h('p', { class: 'lead' }, partial ? 'At least ' : '', h('b', { text: count(thrown) }),
      thrown === 1 ? ' exception' : ' exceptions', ' thrown, of ', partial ? 'at least ' : '',
      h('b', { text: count(types.length) }), types.length === 1 ? ' type' : ' types',
      partial ? ' (in the ' + count(rows.length) + ' of ' + count(a.tables.exceptions.rowCount) +
        ' rows the page holds).' : '.'));
    var colors = colorMap(types.map(function (t) { return t.type; }));
    var top = types.slice().sort(function (p, q) { return q.count - p.count; }).slice(0, TOP);
    sec.appendChild(h('div', { class: 'title', text: 'Exceptions by type' }));
    var holder = h('div', { class: 'chart', id: 'exceptions-chart' });
    sec.appendChild(holder);
    staticChart(holder, function (el) {
      barChart(el, top.map(function (t) {
        return { label: t.type, value: t.count, color: colors[t.type],
          tip: [t.type, [['Thrown', count(t.count)], ['Rows (message and thrower)', count(t.messages)],
            ['First', ms(t.first)]]] };
      }), 'exception-bar', function (it) { return count(it.value); });
    });
    sec.appendChild(h('h3', { text: 'Per type, message and thrower' }));
    sec.appendChild(dataTable([
      { key: 'type', label: 'Type', chip: function (r) { return colors[r.type]; } },
      { key: 'message', label: 'Message' },
      { key: 'count', label: 'Count', num: true, fmt: count },
      { key: 'first_relative_ms', label: 'First ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'last_relative_ms', label: 'Last ms', num: true, fmt: function (v) { return fixed(v, 3); } },
      { key: 'thrown_by', label: 'Thrown by', cls: 'mono' }
    ], rows, { rowCount: a.tables.exceptions.rowCount }));
    sec.appendChild(readNote(a));
    return sec;
  }

  /* Any analysis: its tables as they come. */
  function genericSection(a) {
    var sec = section(a.name, a.name);
    a.tableOrder.forEach(function (name) {
      var t = a.tables[name];
      sec.appendChild(h('h3', { text: name }));
      if (!t.rows.length) sec.appendChild(h('p', { class: 'empty', text: 'No rows.' }));
      else sec.appendChild(dataTable(genericColumns(t), t.rows, { rowCount: t.rowCount }));
    });
    sec.appendChild(readNote(a));
    return sec;
  }

  /*
   * The sections the page knows, in the page's order: the analysis whose tables each draws, and a count for
   * the table of contents. An analysis the command adds shows as genericSection until it gets an entry here.
   */
  var SECTIONS = [
    { analysis: 'gc', id: 'gc', label: 'GC', render: renderGc, n: function (a) { return a.tables.gc && a.tables.gc.rowCount; } },
    { analysis: 'gc', id: 'heap', label: 'Heap', render: renderHeap },
    { analysis: 'cpu', id: 'cpu', label: 'CPU', render: renderCpu,
      n: function (a) { return a.tables.cpu_summary && a.tables.cpu_summary.rows[0] && a.tables.cpu_summary.rows[0].samples; } },
    { analysis: 'exceptions', id: 'exceptions', label: 'Exceptions', render: renderExceptions,
      n: function (a) { return a.tables.exceptions && a.tables.exceptions.rows.reduce(function (n, r) { return n + (r.count || 0); }, 0); } },
    { analysis: 'alloc', id: 'alloc', label: 'Allocations', render: renderAlloc,
      n: function (a) { return a.tables.alloc && a.tables.alloc.rowCount; } },
    { analysis: 'jit', id: 'jit', label: 'JIT', render: renderJit, n: function (a) { return a.tables.jit && a.tables.jit.rowCount; } },
    { analysis: 'contention', id: 'contention', label: 'Contention', render: renderContention,
      n: function (a) { return a.tables.contention_locks && a.tables.contention_locks.rowCount; } },
    { analysis: 'activities', id: 'activities', label: 'Activities', render: renderActivities,
      n: function (a) { return a.tables.activities && a.tables.activities.rowCount; } }
  ];

  /* ---------------------------------------------------------------- */
  /* The page                                                          */
  /* ---------------------------------------------------------------- */

  function header() {
    var t = DATA.trace || {};
    document.title = 'ntidx report: ' + (t.name || 'trace');
    var fmt = t.format_version === 3 ? 'NetPerf V3' : 'NetTrace V' + t.format_version;
    var span = isNum(t.first_ms) && isNum(t.last_ms) ? fixed(t.first_ms, 3) + ' – ' + fixed(t.last_ms, 3) + ' ms (' +
      fixed((t.last_ms - t.first_ms) / 1000, 3) + ' s)' : 'no events';
    var w = DATA.window || {};
    var windowText = w.whole_trace ? 'the whole trace' : fixed(w.from_ms, 3) + ' – ' + fixed(w.to_ms, 3) + ' ms';
    var facts = [['Trace', t.path], ['Size', bytes(t.size)], ['Format', fmt],
      ['Process', t.process_id ? String(t.process_id) : '–'], ['Processors', t.processors ? String(t.processors) : '–'],
      ['Sync time (UTC)', t.sync_time ? t.sync_time.replace('T', ' ').replace(/(\.\d{3})\d*Z$/, '$1') : '–'], ['Events', span], ['Window', windowText]];
    return h('header', { class: 'top' },
      h('h1', null, 'ntidx report ', h('span', { class: 'file', text: t.name || '' })),
      h('p', { class: 'sub', text: 'Times are in ms since the trace\u2019s sync time (PerfView\u2019s MSec); sizes in ' +
        'MB of 10^6 bytes. Hover a mark for its numbers, drag across a chart to zoom, click a column to sort.' }),
      h('dl', { class: 'facts' }, facts.map(function (f) { return h('div', null, h('dt', { text: f[0] }), h('dd', { text: f[1] })); })));
  }

  function render() {
    app.appendChild(header());
    var nav = h('nav', { class: 'toc' });
    app.lastChild.appendChild(nav);
    widenView(win.from_ms, win.to_ms);
    var done = {};
    var sections = [];
    SECTIONS.forEach(function (d) {
      var a = analyses[d.analysis];
      if (!a) return;
      done[d.analysis] = true;
      sections.push({ el: d.render(a), label: d.label, n: d.n ? d.n(a) : null });
    });
    Object.keys(analyses).forEach(function (name) {
      if (!done[name]) sections.push({ el: genericSection(analyses[name]), label: name, n: null });
    });
    sections.forEach(function (sc) {
      nav.appendChild(h('a', { href: '#' + sc.el.id }, sc.label, isNum(sc.n) ? h('span', { class: 'n', text: count(sc.n) }) : null));
      app.appendChild(sc.el);
    });
    app.appendChild(h('footer', { class: 'bottom', text: 'Made by ntidx ' + DATA.ntidx_version + ' (ntidx report). ' +
      'Everything on this page is inside this file.' }));
    if (!fullView) fullView = [0, 1];
    if (fullView[1] <= fullView[0]) fullView[1] = fullView[0] + 1;
    view = fullView.slice();
    timeCharts.forEach(function (c) { c.draw(); });
    zoombars.forEach(function (z) { z(); });
    var pending = null, lastWidth = app.clientWidth;
    window.addEventListener('resize', function () {
      if (pending) clearTimeout(pending);
      pending = setTimeout(function () {
        if (app.clientWidth !== lastWidth) { lastWidth = app.clientWidth; timeCharts.forEach(function (c) { c.draw(); }); }
      }, 120);
    });
    document.body.setAttribute('data-rendered', 'yes');
  }

  render();
})();
