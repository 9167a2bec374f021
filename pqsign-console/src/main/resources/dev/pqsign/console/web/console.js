// pqsign operator console: renders what /events pushes. Every value from the server is written with
// textContent or as a chart number, never parsed as HTML.
(function () {
  'use strict';

  var byId = function (id) { return document.getElementById(id); };
  var cards = new Map();
  var historyMillis = 300000;
  var latencyChart = null;
  var latencyData = null;
  var feedMax = 200;
  var CHART_HEIGHT = 140;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text != null) { e.textContent = text; }
    return e;
  }

  function dash(v) { return v == null || v === '' ? '—' : String(v); }

  function shortTime(iso) {
    if (!iso) { return '—'; }
    return iso.replace('T', ' ').replace(/(\.\d{3})\d*Z$/, '$1Z');
  }

  function duration(seconds) {
    if (seconds == null) { return null; }
    var s = Math.round(seconds);
    if (s >= 86400) { return Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h'; }
    if (s >= 3600) { return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min'; }
    if (s >= 60) { return Math.floor(s / 60) + ' min ' + (s % 60) + ' s'; }
    return s + ' s';
  }

  // A server-side display text: {text, marks}. Marked text gets a visible warning next to it.
  function showText(node, marksNode, shown) {
    node.textContent = shown ? shown.text : '—';
    if (!marksNode) { return; }
    var marks = shown && shown.marks ? shown.marks : [];
    marksNode.textContent = marks.length ? '⚠ ' + marks.map(function (m) { return m.toLowerCase(); }).join(', ') : '';
    marksNode.title = marks.length ? 'This text contains characters that are shown, not interpreted: '
      + marks.join(', ') : '';
  }

  function fact(dl, label) {
    dl.appendChild(el('dt', null, label));
    var dd = el('dd');
    dl.appendChild(dd);
    return dd;
  }

  function makeCard(id) {
    var root = el('article', 'card');
    root.dataset.sensor = id;
    var head = el('div', 'card-head');
    var name = el('span', 'sensor-name');
    var nameMarks = el('span', 'marks');
    var verdict = el('span', 'badge verdict');
    var reason = el('span', 'badge reason');
    var conn = el('span', 'badge conn');
    conn.title = 'connection state';
    head.append(name, nameMarks, verdict, reason, conn);
    var readingRow = el('div', 'reading-row');
    var reading = el('span', 'reading');
    reading.dir = 'ltr';
    var readingMarks = el('span', 'marks reading-marks');
    readingRow.append(reading, readingMarks);
    var dl = el('dl', 'facts');
    var c = {
      root: root, name: name, nameMarks: nameMarks, verdict: verdict, reason: reason, conn: conn,
      reading: reading, readingMarks: readingMarks,
      sourceTime: fact(dl, 'Source time'),
      age: fact(dl, 'Last reading'),
      index: fact(dl, 'Index'),
      detail: fact(dl, 'Detail'),
      key: fact(dl, 'Key'),
      remaining: fact(dl, 'Remaining'),
      counts: el('div', 'counts'),
      chartBox: el('div', 'chart'),
      chart: null, xs: [], ys: []
    };
    c.index.classList.add('index');
    c.key.classList.add('mono', 'key');
    c.detail.classList.add('detail');
    c.remaining.classList.add('remaining');
    c.sourceTime.classList.add('source-time');
    c.chartBox.setAttribute('aria-label', 'accepted reading values');
    root.append(head, readingRow, dl, c.counts, c.chartBox);
    var list = byId('sensors');
    var after = null;
    cards.forEach(function (other, otherId) {
      if (after === null && otherId > id) { after = other.root; }
    });
    list.insertBefore(root, after);
    byId('no-sensors').classList.add('hidden');
    cards.set(id, c);
    return c;
  }

  function count(parent, cls, label, value) {
    var span = el('span', cls);
    span.append(label + ' ', el('b', null, String(value)));
    parent.appendChild(span);
  }

  function updateCard(s) {
    var c = cards.get(s.id) || makeCard(s.id);
    showText(c.name, c.nameMarks, s.name);
    var v = s.verdict || 'NONE';
    c.root.className = 'card v-' + v;
    c.verdict.className = 'badge verdict v-' + v;
    c.verdict.textContent = s.verdict ? s.verdict : 'no reading yet';
    c.reason.textContent = s.reason && s.reason !== s.verdict ? s.reason : '';
    c.reason.className = 'badge reason v-' + v;
    c.reason.hidden = !c.reason.textContent;
    var state = s.connection ? s.connection.text : 'unknown';
    c.conn.textContent = state + (s.connectionSince && state !== 'connected' ? ' since ' + shortTime(s.connectionSince) : '');
    c.conn.className = 'badge conn c-' + state.replace(/[^a-z]/g, '');
    // A sensor that is not connected, or silent, must not look healthy: its last verdict is history.
    c.root.dataset.stale = (s.silent || (s.connection && state !== 'connected')) ? 'true' : 'false';
    c.receivedAt = s.receivedAt;
    showAge(c);
    showText(c.reading, c.readingMarks, s.reading);
    c.sourceTime.textContent = shortTime(s.sourceTime);
    c.index.textContent = s.index >= 0 ? String(s.index) : '—';
    c.detail.textContent = s.verdict && s.verdict !== 'ACCEPTED' && s.detail ? s.detail.text : '—';
    var key = (s.parameterSet ? s.parameterSet.text : '—') + '  ' + (s.keyId ? s.keyId.substring(0, 16) + '…' : '');
    if (s.generation != null) { key += '  gen ' + s.generation; }
    c.key.textContent = key;
    c.key.title = s.keyId ? 'key id ' + s.keyId : '';
    var rem = s.remaining == null ? '—' : s.remaining.toLocaleString('en') + ' signatures';
    var left = duration(s.secondsLeft);
    if (left) { rem += ', about ' + left + ' left'; }
    if (s.nextKeyReady != null) { rem += s.nextKeyReady ? ', next key ready' : ', next key NOT ready'; }
    c.remaining.textContent = rem;
    var n = s.counts;
    c.lastCounts = n;
    c.counts.replaceChildren();
    count(c.counts, 'accepted-count', 'accepted', n.accepted);
    count(c.counts, 'rejected-count', 'rejected', n.rejected);
    Object.keys(n.rejectedByReason).forEach(function (r) {
      count(c.counts, 'rejected-reason', r, n.rejectedByReason[r]);
    });
    count(c.counts, 'gap-count', 'gaps', n.gaps + ' (' + n.missing + ' missing)');
    count(c.counts, 'duplicate-count', 'duplicates', n.duplicates);
    if (n.indexReuse) { count(c.counts, 'reuse-count', 'INDEX REUSE', n.indexReuse); }
  }

  function chartWidth(box) { return Math.max(200, box.clientWidth); }

  function addPoints(id, pts) {
    var c = cards.get(id);
    if (!c || !window.uPlot) { return; }
    pts.forEach(function (p) { c.xs.push(p[0] / 1000); c.ys.push(p[1]); });
    if (c.xs.length) {
      var oldest = c.xs[c.xs.length - 1] - historyMillis / 1000;
      var cut = 0;
      while (cut < c.xs.length && c.xs[cut] < oldest) { cut++; }
      if (cut) { c.xs.splice(0, cut); c.ys.splice(0, cut); }
    }
    if (!c.chart) {
      if (!c.xs.length) { return; }
      c.chart = new uPlot({
        width: chartWidth(c.chartBox), height: CHART_HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [{ size: 30 }, { size: 56 }],
        series: [{}, { label: 'value', stroke: '#3559a8', width: 1.5 }]
      }, [c.xs, c.ys], c.chartBox);
    } else {
      c.chart.setData([c.xs, c.ys]);
    }
  }

  function setLatency(l) {
    if (!window.uPlot) { return; }
    var xs = l.labels.map(function (_, i) { return i; });
    latencyData = [xs, l.series.sign, l.series.transfer, l.series.verify, l.series.end_to_end];
    if (!latencyChart) {
      var box = byId('latency');
      var labels = l.labels;
      var step = uPlot.paths.stepped({ align: 1 });
      latencyChart = new uPlot({
        width: chartWidth(box), height: 180,
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false } },
        axes: [{ values: function (u, splits) { return splits.map(function (i) { return labels[i] || ''; }); },
                 size: 30 }, { size: 50 }],
        series: [
          { label: 'bucket', value: function (u, i) { return i == null ? '' : labels[i]; } },
          { label: 'sign', stroke: '#1a7f37', paths: step },
          { label: 'transfer', stroke: '#9a6700', paths: step },
          { label: 'verify', stroke: '#3559a8', paths: step },
          { label: 'end-to-end', stroke: '#b42318', paths: step, width: 2 }
        ]
      }, latencyData, box);
    } else {
      latencyChart.setData(latencyData);
    }
  }

  function feedItem(item) {
    var li = el('li', 'feed-item kind-' + item.kind);
    li.dataset.kind = item.kind;
    li.appendChild(el('span', 'when', shortTime(item.time)));
    var badge = el('span', 'badge kind-' + item.kind, item.reason || item.kind);
    li.append(badge, ' ');
    var sensor = el('b', 'feed-sensor');
    showText(sensor, null, item.sensor);
    li.append(sensor);
    if (item.index >= 0) { li.append(' #' + item.index); }
    li.append(' ');
    var what = el('span', 'what');
    var marks = el('span', 'marks');
    showText(what, marks, item.text);
    li.append(what, marks);
    return li;
  }

  function addFeed(items) {
    var list = byId('feed');
    // Items arrive oldest first; each goes on top.
    items.forEach(function (item) { list.insertBefore(feedItem(item), list.firstChild); });
    while (list.children.length > feedMax) { list.removeChild(list.lastChild); }
    byId('feed-empty').classList.toggle('hidden', list.children.length > 0);
  }

  function summarize() {
    var acc = 0, rej = 0, gaps = 0;
    cards.forEach(function (c) {
      if (c.lastCounts) { acc += c.lastCounts.accepted; rej += c.lastCounts.rejected; gaps += c.lastCounts.gaps; }
    });
    byId('summary').textContent = cards.size + ' sensor(s) · accepted ' + acc + ' · rejected ' + rej + ' · gaps ' + gaps;
  }

  function apply(msg, snapshot) {
    if (snapshot) {
      historyMillis = msg.historyMillis || historyMillis;
      feedMax = msg.feedSize || feedMax;
      cards.forEach(function (c) { if (c.chart) { c.chart.destroy(); } c.root.remove(); });
      cards.clear();
      byId('feed').replaceChildren();
      byId('no-sensors').classList.remove('hidden');
    }
    msg.sensors.forEach(updateCard);
    // A snapshot's feed is newest first; reverse so addFeed can put each on top.
    addFeed(snapshot ? msg.feed.slice().reverse() : msg.feed);
    Object.keys(msg.points).forEach(function (id) { addPoints(id, msg.points[id]); });
    if (msg.latency) { setLatency(msg.latency); }
    summarize();
    document.body.dataset.updates = String((Number(document.body.dataset.updates) || 0) + 1);
  }

  function showAge(c) {
    if (!c.receivedAt) { c.age.textContent = '—'; return; }
    var seconds = (Date.now() - Date.parse(c.receivedAt)) / 1000;
    c.age.textContent = (seconds < 1 ? 'just now' : duration(Math.max(0, seconds)) + ' ago');
  }

  // Ages grow between updates: redraw them every second.
  setInterval(function () { cards.forEach(showAge); }, 1000);

  function connect() {
    var live = byId('live');
    var source = new EventSource('/events');
    source.addEventListener('snapshot', function (e) { apply(JSON.parse(e.data), true); });
    source.addEventListener('delta', function (e) { apply(JSON.parse(e.data), false); });
    source.onopen = function () { live.textContent = 'live'; live.className = 'live on'; };
    // EventSource reconnects by itself (the server asks for 2 s); a snapshot then replaces everything.
    source.onerror = function () { live.textContent = 'disconnected — retrying'; live.className = 'live off'; };
  }

  function resize() {
    cards.forEach(function (c) {
      if (c.chart) { c.chart.setSize({ width: chartWidth(c.chartBox), height: CHART_HEIGHT }); }
    });
    if (latencyChart) { latencyChart.setSize({ width: chartWidth(byId('latency')), height: 180 }); }
  }

  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(resize, 150);
  });
  connect();
}());
