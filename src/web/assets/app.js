// Credence dashboard: hand-written, no framework, no CDN. One script for every page; the path picks the
// view (/graph, /confidence, /calibration, /learning, /runs, /ask). Data comes from /api/ (see docs/dashboard.md).
// Every text from the store goes into the page as text nodes, never as HTML.
'use strict';

(() => {
  const NODE_COLOUR = '#4a5568';
  const BANDS = ['noise', 'tentative', 'probable', 'certain', 'established'];
  const BAND_COLOURS = {
    noise: '#b8bcc4',
    tentative: '#e8912d',
    probable: '#c9b22a',
    certain: '#3a9d5d',
    established: '#2f6fd6',
  };
  const TYPE_STYLES = {
    dependency: { width: 1.8, dash: [] },
    contains: { width: 1.4, dash: [8, 3, 2, 3] },
    alternative: { width: 1.2, dash: [6, 4] },
    sequence: { width: 1, dash: [2, 3] },
  };
  const page = (location.pathname.replace(/^\/+|\/+$/g, '') || 'graph').replace('index.html', 'graph');
  const main = document.getElementById('main');
  const params = new URLSearchParams(location.search);

  // A token given as #token=… is kept for this tab and sent as a bearer token to the API. One that
  // is not valid URL encoding (#token=%E0%A4%A) is ignored, with a message, and the page still loads.
  const fromHash = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  let tokenProblem = null;
  if (fromHash) {
    try {
      sessionStorage.setItem('credence-token', decodeURIComponent(fromHash[1]));
    } catch (error) {
      tokenProblem =
        error instanceof URIError
          ? 'The token in the address (#token=…) is not valid URL encoding, so it was ignored: ' +
            'open the page again with #token= and the token as the server was given it ' +
            '(percent-encode only what needs it).'
          : `The token in the address (#token=…) could not be kept for this tab, so it was ignored: ${error.message}`;
    }
    history.replaceState(null, '', location.pathname + location.search);
  }
  let token = null;
  try {
    token = sessionStorage.getItem('credence-token');
  } catch {
    // no storage for this page: the API is asked without a token
  }
  const scope = params.get('scope') || '';

  // ---- small helpers ------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat(Infinity))
      if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const svgNs = 'http://www.w3.org/2000/svg';
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(svgNs, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    for (const c of children.flat()) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const fmt = (v, d = 3) =>
    v === null || v === undefined
      ? '—'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? String(v)
          : v.toFixed(d)
        : String(v);
  const pct = (v) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);
  const when = (iso) => (iso ? iso.replace('T', ' ').slice(0, 16) : '—');
  const bandOf = (c) =>
    c >= 0.9 ? 'established' : c >= 0.7 ? 'certain' : c >= 0.5 ? 'probable' : c >= 0.3 ? 'tentative' : 'noise';
  const band = (name) => h('span', { class: `band band-${name}` }, name);
  // A table in a frame that scrolls sideways when the table is wider than the page (a phone): the page never does.
  const tableOf = (attrs, ...children) => h('div', { class: 'table-wrap' }, h('table', attrs, ...children));
  // A part's value as text: a number formatted, an object (parts.via {id, how}, newerValue, …) as its own fields.
  const partText = (v) =>
    typeof v === 'number'
      ? fmt(v)
      : Array.isArray(v)
        ? `[${v.map(partText).join(', ')}]`
        : v !== null && typeof v === 'object'
          ? `{${Object.entries(v)
              .map(([k, x]) => `${k}: ${partText(x)}`)
              .join(', ')}}`
          : String(v);
  const partsText = (parts) =>
    Object.entries(parts || {})
      .map(([k, v]) => `${k}=${partText(v)}`)
      .join('  ');
  // A recalled memory's date (when it became true) and life: current, superseded by which and when, in conflict.
  const memoryLife = (r) => {
    const life = r.life || {};
    const status =
      r.status === 'superseded'
        ? `superseded${life.supersededBy ? ` by ${life.supersededBy}` : ''}${
            r.times?.validTo ? `, ${when(r.times.validTo)}` : ''
          }`
        : r.status === 'conflict'
          ? `in conflict${life.conflictsWith?.length ? ` with ${life.conflictsWith.join(', ')}` : ''}`
          : r.status;
    return [when(r.times?.at), status, r.id].filter(Boolean).join(' · ');
  };
  const withScope = (path) => {
    if (!scope) return path;
    return `${path}${path.includes('?') ? '&' : '?'}scope=${encodeURIComponent(scope)}`;
  };

  async function api(path, init) {
    const headers = { accept: 'application/json', ...init?.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(withScope(path), { ...init, headers });
    const body = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
    if (res.status === 401) {
      document.body.dataset.unauthorised = 'true';
      throw new Error(
        token
          ? "The token this tab holds is not the server's (401): open the address credence serve printed, " +
              "ending in #token=<token>, with the server's token in place of <token>, to give it the right one."
          : "This dashboard needs the server's token (401): open the address credence serve printed, " +
              "ending in #token=<token>, with the server's token in place of <token>; " +
              'the page keeps the token for this tab.',
      );
    }
    if (!res.ok) throw new Error(body.error ? body.error.message : `HTTP ${res.status}`);
    return body;
  }
  function fail(error) {
    main.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message || String(error)));
    document.body.dataset.error = error.message || String(error);
  }
  function barsOf(rows, max) {
    const top = Math.max(1, max === undefined ? Math.max(...rows.map((r) => r.count)) : max);
    return h(
      'div',
      { class: 'bars' },
      rows.map((r) => {
        const fill = h('div', { class: `fill ${r.cls || 'plain'}` });
        fill.style.width = `${(100 * r.count) / top}%`;
        return h(
          'div',
          { class: 'row' },
          h('span', {}, r.label),
          h('div', {}, fill),
          h('span', { class: 'num' }, String(r.count)),
        );
      }),
    );
  }
  function meter(value) {
    const fill = h('span');
    fill.style.width = `${Math.max(0, Math.min(1, value)) * 100}%`;
    fill.style.background = BAND_COLOURS[bandOf(value)];
    return h('div', { class: 'bar', title: fmt(value) }, fill);
  }

  if (tokenProblem !== null) {
    main.before(h('p', { class: 'warn', role: 'alert', id: 'token-problem' }, tokenProblem));
    document.body.dataset.tokenProblem = 'ignored';
  }

  // ---- header: navigation and scopes --------------------------------------------------------
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.page === page) a.classList.add('active');
    if (scope) a.href = `${a.getAttribute('href')}?scope=${encodeURIComponent(scope)}`;
  }
  const scopeSelect = document.getElementById('scope');
  const scopesInfo = api('/api/scopes');
  scopesInfo
    .then((data) => {
      const current = scope || data.default;
      const names = data.scopes.map((x) => x.scope);
      if (!names.includes(current)) names.push(current);
      // Every scope holding a row; the served one (listed first) is marked as the default.
      scopeSelect.replaceChildren(
        ...names.map((n) =>
          h(
            'option',
            { value: n, selected: n === current, 'data-default': n === data.default },
            n === data.default ? `${n} (default)` : n,
          ),
        ),
      );
      document.body.dataset.scopes = String(names.length);
      scopeSelect.addEventListener('change', () => {
        const next = new URLSearchParams(location.search);
        if (scopeSelect.value === data.default) next.delete('scope');
        else next.set('scope', scopeSelect.value);
        location.search = next.toString();
      });
      document.body.dataset.writable = String(data.writable);
    })
    .catch(() => {});

  // ---- the tool graph -----------------------------------------------------------------------
  async function graphPage() {
    // `/graph?limit=N` draws the N most central tools (the API's default bound otherwise).
    const limit = new URLSearchParams(location.search).get('limit');
    const data = await api(limit ? `/api/graph?limit=${encodeURIComponent(limit)}` : '/api/graph');
    const n = data.nodes.id.length;
    const m = data.edges.from.length;
    // A large graph comes bounded: its most central tools, with the edges between them (issue 20).
    const hiddenTools = data.stats.nodes - n;
    const toolsShown = hiddenTools > 0 ? `showing ${n} of ${data.stats.nodes} tools` : `${n} tools`;
    const state = {
      types: new Set(data.types),
      min: 0,
      selected: -1,
      edge: -1,
      zoom: 1,
      panX: 0,
      panY: 0,
      detail: null,
    };
    /** What the last draw put down: the edges it drew (indexes) and the boxes of the labels it placed. */
    let visible = [];
    let labels = [];
    const canvas = h('canvas', { id: 'graph', 'aria-label': `tool graph: ${n} tools, ${m} edges` });
    const side = h('aside', { class: 'side', id: 'tool-panel' }, h('h1', {}, 'Tool graph'), summary());
    const find = h('input', {
      type: 'search',
      placeholder: 'find a tool',
      list: 'tool-ids',
      id: 'find-tool',
      size: 22,
    });
    const ids = h(
      'datalist',
      { id: 'tool-ids' },
      n <= 5000 ? data.nodes.id.map((id) => h('option', { value: id })) : [],
    );
    const minLabel = h('span', { class: 'num' }, '0.00');
    const slider = h('input', {
      type: 'range',
      min: 0,
      max: 1,
      step: 0.05,
      value: 0,
      id: 'min-confidence',
      'aria-label': 'minimum confidence',
    });
    const toolbar = h(
      'div',
      { class: 'toolbar' },
      data.types.map((t) =>
        h(
          'label',
          {},
          h('input', {
            type: 'checkbox',
            checked: true,
            'data-type': t,
            onchange: (e) => {
              e.target.checked ? state.types.add(t) : state.types.delete(t);
              draw();
            },
          }),
          ` ${t}`,
        ),
      ),
      h('label', {}, 'confidence ≥ ', slider, ' ', minLabel),
      // Zoom for any pointer (a phone has no mouse wheel): the wheel does the same on a computer.
      h(
        'span',
        { class: 'zoom' },
        h(
          'button',
          { type: 'button', class: 'ghost', id: 'zoom-in', 'aria-label': 'zoom in', onclick: () => zoom(1.5) },
          '+',
        ),
        h(
          'button',
          { type: 'button', class: 'ghost', id: 'zoom-out', 'aria-label': 'zoom out', onclick: () => zoom(1 / 1.5) },
          '−',
        ),
      ),
      find,
      ids,
      h('span', { class: 'muted', id: 'graph-counts' }, `${toolsShown} · ${m} edges · layout ${data.layout}`),
    );
    const legend = h('div', { class: 'legend' }, legendRows());
    const labelNote = h('p', { class: 'muted', id: 'label-note' });
    // The engine's caveat of a clock before an edge's last confirmation (as credence edges prints it).
    const warning = data.warning ? h('p', { class: 'warn', id: 'graph-warning', role: 'note' }, data.warning) : null;
    main.replaceChildren(
      h(
        'div',
        { class: 'graph-page' },
        h(
          'div',
          { class: 'graph-col' },
          toolbar,
          warning,
          h('div', { class: 'graph-wrap' }, canvas, legend),
          // Below the canvas: its text, set as the canvas is drawn, moves nothing drawn.
          labelNote,
        ),
        side,
      ),
    );

    slider.addEventListener('input', () => {
      state.min = Number(slider.value);
      minLabel.textContent = state.min.toFixed(2);
      draw();
    });
    find.addEventListener('change', () => {
      const typed = find.value.trim();
      if (typed === '') return;
      // The exact name first, else the tool whose name matches whatever the case; several such: each listed.
      let i = data.nodes.id.indexOf(typed);
      const same = [];
      if (i < 0) {
        const lower = typed.toLowerCase();
        for (const [k, id] of data.nodes.id.entries()) if (id.toLowerCase() === lower) same.push(k);
        if (same.length === 1) i = same[0];
      }
      if (i >= 0) select(i);
      else if (same.length > 1) {
        state.selected = -1;
        state.edge = -1;
        draw();
        side.replaceChildren(
          h('h1', {}, typed),
          h(
            'p',
            { id: 'find-candidates' },
            `${same.length} tools are named "${typed}" whatever the case: `,
            same.map((k, j) => [
              j > 0 ? ' ' : '',
              h(
                'button',
                { class: 'ghost', 'data-tool': data.nodes.id[k], onclick: () => select(k) },
                data.nodes.id[k],
              ),
            ]),
          ),
        );
        document.body.dataset.findCandidates = same.map((k) => data.nodes.id[k]).join('\n');
        showPanel();
      } else if (hiddenTools > 0) showHidden(typed);
      else {
        state.selected = -1;
        state.edge = -1;
        draw();
        side.replaceChildren(
          h('h1', {}, typed),
          h('p', { class: 'error', id: 'find-missing' }, `no tool is named "${typed}" in this scope`),
        );
        document.body.dataset.findMissing = typed;
        showPanel();
      }
    });

    // Radii by PageRank: the most central tool is the largest; all of them smaller on a small canvas (a phone).
    const maxPr = Math.max(1e-12, ...data.nodes.pageRank.slice(0, 1));
    const base = n > 1000 ? 1.5 : n > 200 ? 2.5 : 4;
    const grow = n > 1000 ? 6 : 14;
    const rank = Float32Array.from(data.nodes.pageRank, (pr) => Math.sqrt(Math.max(0, pr) / maxPr));
    const radius = new Float32Array(n);
    const px = new Float32Array(n);
    const py = new Float32Array(n);
    // The layout's extent: the drawing is fitted to the canvas, each axis on its own, so no tool is cut off.
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i += 1) {
      const x = data.nodes.x[i];
      const y = data.nodes.y[i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    if (minX > maxX) minX = maxX = minY = maxY = 0;
    let width = 0;
    let height = 0;
    /** Positions for one canvas size and zoom, before the pan: computed again only when those change. */
    let placed = { key: '', x: new Float32Array(n), y: new Float32Array(n) };
    /** Up to this many tools, tools drawn on top of each other are pushed apart on the screen. */
    const SPREAD_MAX = 400;
    /** Above SPREAD_MAX, the most central tools are still pushed apart among themselves. */
    const SPREAD_TOP = 60;
    /** On a large graph, these most central tools are named even over a less central tool's disc. */
    const LABEL_TOP = 10;
    /** At most this many neighbours of the selected tool are named right after it, where they fit. */
    const LABEL_NEAR = 12;

    function project() {
      const key = `${width}|${height}|${state.zoom}`;
      if (placed.key !== key) {
        const fit = Math.max(0.45, Math.min(1, Math.min(width, height) / 560));
        let maxR = 0;
        for (let i = 0; i < n; i += 1) {
          radius[i] = (base + grow * rank[i]) * fit;
          maxR = Math.max(maxR, radius[i]);
        }
        const pad = maxR + 4;
        const sx = (Math.max(1, width - 2 * pad) / Math.max(1e-9, maxX - minX)) * state.zoom;
        const sy = (Math.max(1, height - 2 * pad) / Math.max(1e-9, maxY - minY)) * state.zoom;
        const x = new Float32Array(n);
        const y = new Float32Array(n);
        for (let i = 0; i < n; i += 1) {
          x[i] = width / 2 + (data.nodes.x[i] - (minX + maxX) / 2) * (maxX > minX ? sx : 0);
          y[i] = height / 2 + (data.nodes.y[i] - (minY + maxY) / 2) * (maxY > minY ? sy : 0);
        }
        spread(x, y, state.zoom === 1, n <= SPREAD_MAX ? n : SPREAD_TOP);
        placed = { key, x, y };
      }
      for (let i = 0; i < n; i += 1) {
        px[i] = placed.x[i] + state.panX;
        py[i] = placed.y[i] + state.panY;
      }
    }

    /**
     * Pushes apart the first `count` tools (the most central) whose discs overlap (a few rounds, each pair once a
     * round, in index order: the same picture every time), keeping each disc on the canvas when `inside`.
     */
    function spread(x, y, inside, count) {
      for (let round = 0; round < 80; round += 1) {
        let moved = false;
        for (let i = 0; i < count; i += 1) {
          for (let j = i + 1; j < count; j += 1) {
            let dx = x[j] - x[i];
            let dy = y[j] - y[i];
            let d = Math.hypot(dx, dy);
            const need = radius[i] + radius[j] + 3;
            if (d >= need) continue;
            if (d < 1e-6) {
              // One on the other: apart along a direction of their own.
              const angle = ((i * 7 + j * 13) % 360) * (Math.PI / 180);
              dx = Math.cos(angle);
              dy = Math.sin(angle);
              d = 1;
            }
            const push = (need - d) / 2 / d;
            x[i] -= dx * push;
            y[i] -= dy * push;
            x[j] += dx * push;
            y[j] += dy * push;
            moved = true;
          }
        }
        if (inside) {
          for (let i = 0; i < count; i += 1) {
            const r = radius[i] + 1;
            x[i] = Math.min(Math.max(x[i], r), Math.max(r, width - r));
            y[i] = Math.min(Math.max(y[i], r), Math.max(r, height - r));
          }
        }
        if (!moved) break;
      }
    }

    /** Whether the disc of tool `j` touches the box. */
    const discMeetsBox = (j, b) => {
      const cx = Math.min(Math.max(px[j], b.x), b.x + b.w);
      const cy = Math.min(Math.max(py[j], b.y), b.y + b.h);
      return Math.hypot(px[j] - cx, py[j] - cy) < radius[j];
    };
    const boxesMeet = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

    /**
     * Names the tools: the selected one always (found by name or clicked), then its neighbours, then the rest most
     * central first. Each label goes right of its tool, else left, above, below or at a corner, where it stays on
     * the canvas and covers no label and no other tool; one that fits nowhere is left out (the tool is still drawn,
     * and a click names it), except the selected tool's, put over other tools' discs if need be.
     */
    function drawLabels(ctx) {
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = '#1d2125';
      ctx.textBaseline = 'top';
      const boxes = [];
      const sel = state.selected;
      // The selected tool's neighbours on the edges shown, most central first.
      const near = new Set();
      if (sel >= 0)
        for (const e of visible) {
          const a = data.edges.from[e];
          const b = data.edges.to[e];
          if (a === sel && b !== sel) near.add(b);
          else if (b === sel && a !== sel) near.add(a);
        }
      const first = sel >= 0 ? [sel, ...[...near].sort((a, b) => a - b).slice(0, LABEL_NEAR)] : [];
      const firsts = new Set(first);
      // Then most central first: on a large graph the first few hundred are tried, in that order.
      const tried = Math.min(n, 400);
      const order = [...first];
      for (let i = 0; i < tried; i += 1) if (!firsts.has(i)) order.push(i);
      const checkDiscs = n <= 2000;
      for (const i of order) {
        // Above SPREAD_MAX tools the centre is crowded: the most central, the selected tool and its neighbours are
        // named over less central discs.
        const discs = n > SPREAD_MAX && (i < LABEL_TOP || firsts.has(i)) ? LABEL_TOP : n;
        if (!Number.isFinite(px[i] + py[i])) continue;
        const text = data.nodes.id[i];
        const w = Math.ceil(ctx.measureText(text).width);
        const hh = 13;
        const r = radius[i];
        const spots = [
          { x: px[i] + r + 3, y: py[i] - hh / 2 },
          { x: px[i] - r - 3 - w, y: py[i] - hh / 2 },
          { x: px[i] - w / 2, y: py[i] - r - 2 - hh },
          { x: px[i] - w / 2, y: py[i] + r + 2 },
          { x: px[i] + r * 0.7 + 2, y: py[i] - r * 0.7 - hh },
          { x: px[i] + r * 0.7 + 2, y: py[i] + r * 0.7 },
          { x: px[i] - r * 0.7 - 2 - w, y: py[i] - r * 0.7 - hh },
          { x: px[i] - r * 0.7 - 2 - w, y: py[i] + r * 0.7 },
        ];
        // A most central tool of a crowded graph may be named a few lines off its disc, still beside it.
        if (discs < n)
          for (let k = 1; k <= 4; k += 1)
            spots.push(
              { x: px[i] + r + 3, y: py[i] - hh / 2 - k * hh },
              { x: px[i] + r + 3, y: py[i] - hh / 2 + k * hh },
              { x: px[i] - r - 3 - w, y: py[i] - hh / 2 - k * hh },
              { x: px[i] - r - 3 - w, y: py[i] - hh / 2 + k * hh },
            );
        const inside = (b) => b.x >= 1 && b.y >= 1 && b.x + b.w <= width - 1 && b.y + b.h <= height - 1;
        let placed = null;
        for (const spot of spots) {
          const b = { x: spot.x, y: spot.y, w, h: hh };
          if (!inside(b)) continue;
          if (boxes.some((o) => boxesMeet(o, b))) continue;
          let covers = false;
          if (checkDiscs)
            for (let j = 0; j < discs && !covers; j += 1) if (j !== i && discMeetsBox(j, b)) covers = true;
          if (covers) continue;
          placed = b;
          break;
        }
        // The selected tool is named wherever it is on the canvas: over other discs, else pushed inside the canvas.
        if (placed === null && i === sel && px[i] >= 0 && py[i] >= 0 && px[i] <= width && py[i] <= height) {
          placed = spots.map((spot) => ({ x: spot.x, y: spot.y, w, h: hh })).find(inside) ?? {
            x: Math.max(1, Math.min(spots[0].x, width - 1 - w)),
            y: Math.max(1, Math.min(spots[0].y, height - 1 - hh)),
            w,
            h: hh,
          };
        }
        if (placed === null) continue;
        ctx.fillText(text, placed.x, placed.y + 1);
        boxes.push({ id: text, ...placed });
      }
      ctx.textBaseline = 'alphabetic';
      return boxes;
    }

    function draw() {
      const dpr = window.devicePixelRatio || 1;
      const rect = canvas.getBoundingClientRect();
      width = rect.width;
      height = rect.height;
      if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
      }
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
      project();
      // Edges batched by style (type × band), so 50,000 edges are a few dozen strokes.
      const batches = new Map();
      const sel = state.selected;
      let shown = 0;
      visible = [];
      let drawnEdges = 0;
      let drawnNodes = 0;
      for (let e = 0; e < m; e += 1) {
        const type = data.types[data.edges.type[e]];
        const c = data.edges.confidence[e];
        if (!state.types.has(type) || c < state.min - 1e-9) continue;
        shown += 1;
        visible.push(e);
        const a = data.edges.from[e];
        const b = data.edges.to[e];
        const focus = sel >= 0 && (a === sel || b === sel);
        const key = `${type}|${bandOf(c)}|${focus ? 1 : sel >= 0 ? 2 : 0}|${c < data.threshold ? 1 : 0}`;
        let list = batches.get(key);
        if (list === undefined) batches.set(key, (list = []));
        list.push(e);
      }
      for (const [key, list] of batches) {
        const [type, b, focus, faded] = key.split('|');
        const style = TYPE_STYLES[type];
        ctx.beginPath();
        for (const e of list) {
          const a = data.edges.from[e];
          const t = data.edges.to[e];
          if (!Number.isFinite(px[a] + py[a] + px[t] + py[t])) continue;
          ctx.moveTo(px[a], py[a]);
          ctx.lineTo(px[t], py[t]);
          drawnEdges += 1;
        }
        ctx.setLineDash(style.dash);
        ctx.lineWidth = style.width * (focus === '1' ? 1.8 : 1);
        ctx.strokeStyle = BAND_COLOURS[b];
        // Below the 0.3 threshold an edge takes no part in suggestions: drawn faded.
        ctx.globalAlpha = faded === '1' ? 0.15 : focus === '2' ? 0.12 : m > 5000 ? 0.35 : 0.8;
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
      const chosen = state.edge;
      if (chosen >= 0 && visible.includes(chosen)) {
        // The edge a click explains, over the others.
        ctx.strokeStyle = '#2f5db8';
        ctx.lineWidth = 4;
        ctx.beginPath();
        ctx.moveTo(px[data.edges.from[chosen]], py[data.edges.from[chosen]]);
        ctx.lineTo(px[data.edges.to[chosen]], py[data.edges.to[chosen]]);
        ctx.stroke();
      }
      if (m <= 600) drawArrows(ctx);
      ctx.fillStyle = NODE_COLOUR;
      ctx.beginPath();
      for (let i = 0; i < n; i += 1) {
        if (!Number.isFinite(px[i] + py[i] + radius[i]) || radius[i] <= 0) continue;
        ctx.moveTo(px[i] + radius[i], py[i]);
        ctx.arc(px[i], py[i], radius[i], 0, Math.PI * 2);
        drawnNodes += 1;
      }
      ctx.fill();
      if (sel >= 0) {
        ctx.fillStyle = '#2f5db8';
        ctx.beginPath();
        ctx.arc(px[sel], py[sel], radius[sel] + 3, 0, Math.PI * 2);
        ctx.fill();
      }
      // Labels: every tool that has room on a small graph, the most central ones on a large one.
      labels = drawLabels(ctx);
      // Not every tool could be named: say how to name the rest.
      labelNote.textContent =
        labels.length < drawnNodes
          ? `${labels.length} of ${drawnNodes} tools are named here: zoom in (+ above the graph, or the mouse wheel) ` +
            'to name more, or type a tool in the find box (or click it) to name it and its neighbours'
          : '';
      document.getElementById('graph-counts').textContent =
        `${toolsShown} · ${shown} of ${m} edges shown · layout ${data.layout}`;
      // The markers the tests and the bench wait on: what this draw put on the canvas, counted by
      // the loops above (not the data's length), and when the first draw ended.
      graph.drawnNodes = drawnNodes;
      graph.drawnEdges = drawnEdges;
      if (graph.renderedAt === undefined) graph.renderedAt = performance.now();
      document.body.dataset.graphEdges = String(drawnEdges);
      document.body.dataset.graphRendered = String(drawnNodes);
    }

    function drawArrows(ctx) {
      ctx.fillStyle = '#6b7280';
      for (let e = 0; e < m; e += 1) {
        const type = data.types[data.edges.type[e]];
        if (!state.types.has(type) || data.edges.confidence[e] < state.min - 1e-9) continue;
        const a = data.edges.from[e];
        const b = data.edges.to[e];
        const dx = px[b] - px[a];
        const dy = py[b] - py[a];
        const len = Math.hypot(dx, dy);
        if (len < 1) continue;
        const ux = dx / len;
        const uy = dy / len;
        const tipX = px[b] - ux * (radius[b] + 1);
        const tipY = py[b] - uy * (radius[b] + 1);
        ctx.globalAlpha = data.edges.confidence[e] < data.threshold ? 0.2 : 0.8;
        ctx.beginPath();
        ctx.moveTo(tipX, tipY);
        ctx.lineTo(tipX - ux * 7 - uy * 3, tipY - uy * 7 + ux * 3);
        ctx.lineTo(tipX - ux * 7 + uy * 3, tipY - uy * 7 - ux * 3);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    }

    function nodeAt(x, y) {
      let best = -1;
      let bestD = Infinity;
      for (let i = 0; i < n; i += 1) {
        const d = Math.hypot(px[i] - x, py[i] - y);
        if (d <= radius[i] + 5 && d < bestD) {
          best = i;
          bestD = d;
        }
      }
      return best;
    }

    /** On a phone the panel is under the graph: what a click chose is scrolled into view. */
    function showPanel() {
      if (window.matchMedia('(max-width: 760px)').matches) side.scrollIntoView({ block: 'start' });
    }

    /** The drawn edge nearest to a point, within 5 px of its line; -1 when none is. */
    function edgeAt(x, y) {
      let best = -1;
      let bestD = 5;
      for (const e of visible) {
        const a = data.edges.from[e];
        const b = data.edges.to[e];
        const dx = px[b] - px[a];
        const dy = py[b] - py[a];
        const len2 = dx * dx + dy * dy;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - px[a]) * dx + (y - py[a]) * dy) / len2));
        const d = Math.hypot(px[a] + t * dx - x, py[a] + t * dy - y);
        if (d < bestD) {
          best = e;
          bestD = d;
        }
      }
      return best;
    }

    /** An edge clicked on the canvas: why it has its confidence, from its tool's edges as the API explains them. */
    async function selectEdge(e) {
      state.edge = e;
      state.selected = -1;
      draw();
      const from = data.nodes.id[data.edges.from[e]];
      const to = data.nodes.id[data.edges.to[e]];
      const type = data.types[data.edges.type[e]];
      const name = `${from} → ${to}`;
      side.replaceChildren(h('h1', {}, name), h('p', { class: 'muted' }, 'Loading…'));
      try {
        const tool = await api(`/api/tool?id=${encodeURIComponent(from)}`);
        if (state.edge !== e) return;
        const edge = tool.outgoing.find((x) => x.to === to && x.type === type);
        if (edge === undefined) throw new Error(`the edge ${name} (${type}) is no longer stored`);
        // Edges of other types between the same tools lie on the same line: each is explained after it.
        const others = tool.outgoing.filter((x) => x.to === to && x !== edge);
        side.replaceChildren(
          h('h1', { id: 'edge-title' }, name),
          h('h2', {}, `${type} edge, ${edge.source}: ${fmt(edge.confidence)} `, band(edge.band)),
          edgeWhy(edge, tool.halfLifeDays),
          ...others.flatMap((o) => [
            h('h2', {}, `also ${o.type}, ${o.source}: ${fmt(o.confidence)} `, band(o.band)),
            edgeWhy(o, tool.halfLifeDays),
          ]),
          h(
            'p',
            {},
            h('button', { class: 'ghost', onclick: () => select(data.edges.from[e]) }, from),
            ' ',
            h('button', { class: 'ghost', onclick: () => select(data.edges.to[e]) }, to),
          ),
        );
        document.body.dataset.selectedEdge = `${from}>${to}:${type}`;
        showPanel();
      } catch (error) {
        side.replaceChildren(h('h1', {}, name), h('p', { class: 'error' }, error.message));
      }
    }

    async function select(i) {
      state.selected = i;
      state.edge = -1;
      draw();
      const id = data.nodes.id[i];
      side.replaceChildren(h('h1', {}, id), h('p', { class: 'muted' }, 'Loading…'));
      try {
        const tool = await api(`/api/tool?id=${encodeURIComponent(id)}`);
        if (state.selected === i) side.replaceChildren(...toolDetail(tool, data.nodes.pageRank[i]));
        document.body.dataset.selectedTool = id;
        showPanel();
      } catch (error) {
        side.replaceChildren(h('h1', {}, id), h('p', { class: 'error' }, error.message));
      }
    }

    /** A tool outside the drawn ones (a bounded graph): its detail from the API, nothing selected on the canvas. */
    async function showHidden(id) {
      state.selected = -1;
      draw();
      side.replaceChildren(h('h1', {}, id), h('p', { class: 'muted' }, 'Loading…'));
      try {
        const tool = await api(`/api/tool?id=${encodeURIComponent(id)}`);
        if (state.selected === -1) side.replaceChildren(...toolDetail(tool, tool.pageRank));
        document.body.dataset.selectedTool = id;
      } catch (error) {
        side.replaceChildren(h('h1', {}, id), h('p', { class: 'error' }, error.message));
      }
    }

    let drag = null;
    canvas.addEventListener('mousedown', (e) => {
      drag = { x: e.clientX, y: e.clientY, panX: state.panX, panY: state.panY, moved: false };
    });
    window.addEventListener('mousemove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.moved) {
        state.panX = drag.panX + dx;
        state.panY = drag.panY + dy;
        draw();
      }
    });
    window.addEventListener('mouseup', (e) => {
      const was = drag;
      drag = null;
      if (!was || was.moved) return;
      const rect = canvas.getBoundingClientRect();
      const x = e.clientX - rect.left;
      const y = e.clientY - rect.top;
      if (x < 0 || y < 0 || x > rect.width || y > rect.height) return;
      const i = nodeAt(x, y);
      if (i >= 0) return void select(i);
      const edge = edgeAt(x, y);
      if (edge >= 0) selectEdge(edge);
    });
    function zoom(by) {
      state.zoom = Math.max(0.3, Math.min(30, state.zoom * by));
      draw();
    }
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15);
      },
      { passive: false },
    );
    window.addEventListener('resize', draw);

    // What the tests and the bench read: the tools and edges of the data, what the last draw drew,
    // where a tool is, and what the canvas holds at a point.
    const graph = {
      nodeCount: n,
      edgeCount: m,
      drawnNodes: 0,
      drawnEdges: 0,
      renderedAt: undefined,
      /** Where tool `id` is on the screen (client coordinates), for a click. */
      screenPosition(id) {
        const i = data.nodes.id.indexOf(id);
        if (i < 0) return null;
        const rect = canvas.getBoundingClientRect();
        return { x: rect.left + px[i], y: rect.top + py[i] };
      },
      /** The discs of the drawn tools, in client coordinates: `{ id, x, y, r }`. */
      nodeDiscs() {
        const rect = canvas.getBoundingClientRect();
        return Array.from(data.nodes.id, (id, i) => ({ id, x: rect.left + px[i], y: rect.top + py[i], r: radius[i] }));
      },
      /** The boxes of the labels the last draw placed, in client coordinates: `{ id, x, y, w, h }`. */
      labelBoxes() {
        const rect = canvas.getBoundingClientRect();
        return labels.map((b) => ({ id: b.id, x: rect.left + b.x, y: rect.top + b.y, w: b.w, h: b.h }));
      },
      /** A point on the drawn edge `from` → `to` of `type` away from both tools (client coordinates), for a click. */
      edgePoint(from, to, type) {
        const rect = canvas.getBoundingClientRect();
        const e = visible.find(
          (k) =>
            data.nodes.id[data.edges.from[k]] === from &&
            data.nodes.id[data.edges.to[k]] === to &&
            data.types[data.edges.type[k]] === type,
        );
        if (e === undefined) return null;
        const a = data.edges.from[e];
        const b = data.edges.to[e];
        return { x: rect.left + (px[a] + px[b]) / 2, y: rect.top + (py[a] + py[b]) / 2 };
      },
      /** The canvas's pixel [r, g, b, a] at client point (x, y); [0, 0, 0, 0] where nothing is drawn. */
      pixelAt(x, y) {
        const rect = canvas.getBoundingClientRect();
        const dpr = canvas.width / Math.max(1, rect.width);
        return Array.from(
          canvas
            .getContext('2d')
            .getImageData(Math.floor((x - rect.left) * dpr), Math.floor((y - rect.top) * dpr), 1, 1).data,
        );
      },
    };
    window.credenceGraph = graph;
    draw();

    function summary() {
      const st = data.stats;
      return h(
        'div',
        {},
        h(
          'p',
          { class: 'muted' },
          'Click a tool to see its edges and what usually follows it. ' +
            'Sizes follow PageRank over the confident edges; colours the confidence band; ' +
            'faded edges are below the 0.3 threshold.',
        ),
        tableOf(
          {},
          h(
            'tbody',
            {},
            h('tr', {}, h('th', {}, 'tools in the catalogue'), h('td', { class: 'num' }, st.tools)),
            hiddenTools > 0
              ? h(
                  'tr',
                  {},
                  h('th', {}, `drawn: the ${n} most central`),
                  h('td', { class: 'num' }, `${hiddenTools} not drawn`),
                )
              : null,
            h('tr', {}, h('th', {}, 'edges stored'), h('td', { class: 'num' }, st.edges)),
            h('tr', {}, h('th', {}, 'confident pairs (≥ 0.3)'), h('td', { class: 'num' }, st.confidentPairs)),
            h('tr', {}, h('th', {}, 'density'), h('td', { class: 'num' }, fmt(st.density, 4))),
            h('tr', {}, h('th', {}, 'tier'), h('td', { class: 'num' }, st.tier)),
          ),
        ),
        h('h2', {}, 'Most central'),
        h(
          'ol',
          {},
          data.nodes.id
            .slice(0, 8)
            .map((id, i) =>
              h(
                'li',
                {},
                `${id} `,
                h(
                  'span',
                  { class: 'muted' },
                  `PageRank ${fmt(data.nodes.pageRank[i], 4)}, ${data.nodes.calls[i]} calls`,
                ),
              ),
            ),
        ),
      );
    }
  }

  function legendRows() {
    const line = (type) => {
      const st = TYPE_STYLES[type];
      return s(
        'svg',
        { width: 34, height: 10 },
        s('line', {
          x1: 1,
          y1: 5,
          x2: 33,
          y2: 5,
          stroke: '#4a5568',
          'stroke-width': st.width,
          'stroke-dasharray': st.dash.join(' ') || 'none',
        }),
      );
    };
    return [
      h(
        'div',
        {},
        Object.keys(TYPE_STYLES).map((t) => h('span', { class: 'chip' }, line(t), ` ${t}`)),
      ),
      h(
        'div',
        {},
        BANDS.map((b) => h('span', { class: `band band-${b}` }, b)),
        h('span', { class: 'muted' }, ' faded: below 0.3'),
      ),
    ];
  }

  /**
   * Why an edge has its confidence: the parts the API gives (type weight, source modifier, decay over the idle
   * days), side by side with the product the engine computed; the counts and dates behind them.
   */
  function edgeWhy(e, halfLifeDays) {
    const p = e.parts;
    const row = (label, value, note) =>
      h('tr', {}, h('th', {}, label), h('td', { class: 'num' }, value), h('td', { class: 'parts' }, note));
    return h(
      'div',
      { class: 'edge-why-body' },
      h(
        'table',
        { class: 'why-table' },
        h(
          'tbody',
          {},
          row('type weight', p.typeWeight.toFixed(2), `${e.type}: how much this kind of edge is trusted`),
          row('× source modifier', p.sourceModifier.toFixed(2), `${e.source}: how it was learned`),
          row(
            '× decay',
            fmt(p.decay),
            `0.5^(${fmt(p.idleDays, 0)} idle day${p.idleDays === 1 ? '' : 's'} / ${halfLifeDays ?? 60})` +
              `, ${e.lastSeen ? `last confirmed ${e.lastSeen.slice(0, 10)}` : neverConfirmed(e)}`,
          ),
          row(
            '= confidence',
            fmt(e.confidence),
            p.confirmed
              ? `${bandOf(e.confidence)}; ${e.confidence >= 0.3 ? 'used' : 'not used'} for suggestions (≥ 0.3)`
              : 'not confirmed: known only from failed calls, so 0 until a run confirms it',
          ),
        ),
      ),
      h(
        'p',
        { class: 'parts' },
        `confirmed in ${e.count} run${e.count === 1 ? '' : 's'} (${e.successes} successes, ${e.failures} failures), ` +
          `first seen ${e.firstSeen ? e.firstSeen.slice(0, 10) : 'never'}`,
      ),
    );
  }

  /** A hand-declared edge counts as confirmed (core isConfirmed) with no run behind it: its texts say so. */
  function neverConfirmed(e) {
    return `${e.source === 'template' ? 'declared by hand, ' : ''}never confirmed by a run (no decay)`;
  }

  function edgeTable(edges, end, halfLifeDays) {
    if (edges.length === 0) return h('p', { class: 'muted' }, 'none');
    // A click on a row opens (or closes) a row under it saying why the edge has its confidence.
    const toggle = (tr, e) => {
      const next = tr.nextElementSibling;
      if (next?.classList.contains('edge-why')) {
        next.remove();
        tr.classList.remove('edge-open');
        return;
      }
      tr.classList.add('edge-open');
      tr.after(h('tr', { class: 'edge-why' }, h('td', { colspan: 6 }, edgeWhy(e, halfLifeDays))));
      document.body.dataset.explainedEdge = `${e.from}>${e.to}:${e.type}`;
    };
    return tableOf(
      { class: `edges-${end}` },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, end === 'out' ? 'to' : 'from'),
          h('th', {}, 'type'),
          h('th', {}, 'source'),
          h('th', { class: 'num', title: 'how many runs the edge succeeded in' }, 'confirmed in runs'),
          h(
            'th',
            { title: 'the latest run in which the edge succeeded (its decay runs from there)' },
            'last confirmed',
          ),
          h('th', { class: 'num' }, 'confidence'),
        ),
      ),
      h(
        'tbody',
        {},
        edges.map((e) =>
          h(
            'tr',
            {
              'data-edge': `${e.from}>${e.to}:${e.type}`,
              tabindex: 0,
              title: 'why this confidence: click',
              onclick: (ev) => toggle(ev.currentTarget, e),
              onkeydown: (ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  toggle(ev.currentTarget, e);
                }
              },
            },
            h('td', {}, end === 'out' ? e.to : e.from),
            h('td', {}, e.type),
            h('td', {}, e.source),
            h('td', { class: 'num', title: `${e.successes} successes, ${e.failures} failures` }, e.count),
            h(
              'td',
              {},
              e.lastSeen ? e.lastSeen.slice(0, 10) : `never${e.source === 'template' ? ' (declared by hand)' : ''}`,
            ),
            h('td', { class: 'num', title: partsText(e.parts) }, fmt(e.confidence), ' ', band(e.band)),
          ),
        ),
      ),
    );
  }

  function toolDetail(tool, pageRank) {
    return [
      h('h1', {}, tool.id),
      ...(tool.warning ? [h('p', { class: 'warn tool-warning' }, tool.warning)] : []),
      h('p', {}, tool.description || h('span', { class: 'muted' }, 'no description')),
      h(
        'p',
        { class: 'muted' },
        `${tool.calls} calls · PageRank ${fmt(pageRank, 4)}${tool.origin ? ` · ${tool.origin}` : ''}`,
      ),
      h('h2', {}, `Next-tool suggestions (${tool.next.length})`),
      tool.next.length === 0
        ? h('p', { class: 'muted' }, 'none: no confirmed edge ≥ 0.3 leaves this tool')
        : h(
            'ol',
            { id: 'next-tools' },
            tool.next.map((n) =>
              h(
                'li',
                {},
                h('b', {}, n.tool),
                ` ${fmt(n.confidence)} `,
                band(bandOf(n.confidence)),
                n.weak ? h('span', { class: 'muted' }, ' weak') : null,
                h('div', { class: 'parts' }, n.why),
              ),
            ),
          ),
      h('h2', {}, `Edges out (${tool.outgoing.length})`),
      edgeTable(tool.outgoing, 'out', tool.halfLifeDays),
      h('h2', {}, `Edges in (${tool.incoming.length})`),
      edgeTable(tool.incoming, 'in', tool.halfLifeDays),
      h(
        'p',
        { class: 'parts' },
        `confidence = type weight × source modifier × 0.5^(idle days / ${tool.halfLifeDays ?? 60}); ` +
          'click an edge (here or on the graph) for its parts.',
      ),
    ];
  }

  // ---- confidence ---------------------------------------------------------------------------
  async function confidencePage() {
    const d = await api('/api/confidence');
    const bandRows = (bands) =>
      bands.map((b) => ({ label: `${b.band} ${b.min}–${b.max}`, count: b.count, cls: b.band }));
    const tiers = d.density.tiers.map((t) =>
      h(
        'span',
        { class: `chip${t.tier === d.density.tier ? ' success' : ''}` },
        t.below === null ? `${t.tier} ≥ 0.10` : `${t.tier} < ${t.below}`,
      ),
    );
    main.replaceChildren(
      h('h1', {}, `Confidence — scope ${d.scope}`),
      h(
        'div',
        { class: 'cards' },
        h(
          'div',
          { class: 'card', id: 'density' },
          h('div', { class: 'muted' }, 'graph density'),
          h('div', { class: 'big' }, fmt(d.density.value, 4)),
          h('div', {}, 'tier ', h('b', {}, d.density.tier)),
          h('div', {}, tiers),
        ),
        h(
          'div',
          { class: 'card' },
          h('div', { class: 'muted' }, 'DAG weights for this tier'),
          h(
            'div',
            {},
            `hybrid ${d.density.weights.hybrid} · PageRank ${d.density.weights.pageRank} · ` +
              `path ${d.density.weights.path}`,
          ),
          h('div', { class: 'muted' }, `|V| ${d.density.vertices}, |E| ${d.density.confidentPairs}`),
        ),
        h(
          'div',
          { class: 'card' },
          h('div', { class: 'muted' }, 'edges ≥ 0.3 (used for suggestions)'),
          h('div', { class: 'big' }, `${d.edges.aboveThreshold} / ${d.edges.total}`),
        ),
      ),
      h(
        'div',
        { class: 'grid2' },
        h(
          'section',
          { id: 'edge-bands' },
          h('h2', {}, `Edge confidence (${d.edges.total})`),
          barsOf(bandRows(d.edges.bands)),
        ),
        h(
          'section',
          {},
          h('h2', {}, 'By edge type'),
          tableOf(
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'type'),
                BANDS.map((b) => h('th', { class: 'num' }, b)),
              ),
            ),
            h(
              'tbody',
              {},
              d.edges.byType.map((t) =>
                h(
                  'tr',
                  {},
                  h('td', {}, t.type),
                  t.bands.map((b) => h('td', { class: 'num' }, b.count)),
                ),
              ),
            ),
          ),
        ),
        h(
          'section',
          { id: 'instinct-bands' },
          h('h2', {}, `Active instincts (${d.instincts.total})`),
          barsOf(bandRows(d.instincts.bands)),
        ),
        h(
          'section',
          { id: 'skill-bands' },
          h('h2', {}, `Skills, confidence now (${d.skills.total})`),
          barsOf(bandRows(d.skills.bands)),
        ),
      ),
      h('h2', {}, `Over the last ${d.timeline.length} days`),
      timeline(d.timeline),
    );
    document.body.dataset.pageRendered = 'confidence';
  }

  function timeline(days) {
    const w = 900;
    const hgt = 180;
    const left = 36;
    const bw = (w - left) / days.length;
    const maxBar = Math.max(1, ...days.map((d) => Math.max(d.executions, d.observations)));
    const maxEdges = Math.max(1, ...days.map((d) => d.edgesSoFar));
    const y = (v, max) => hgt - 20 - (v / max) * (hgt - 40);
    const svg = s('svg', {
      viewBox: `0 0 ${w} ${hgt}`,
      width: '100%',
      role: 'img',
      'aria-label': 'executions, observations and edges per day',
      id: 'timeline',
    });
    days.forEach((d, i) => {
      const x = left + i * bw;
      svg.append(
        s(
          'rect',
          {
            x: x + 1,
            y: y(d.executions, maxBar),
            width: bw / 2 - 1,
            height: hgt - 20 - y(d.executions, maxBar),
            fill: '#2f6fd6',
          },
          s('title', {}, `${d.day}: ${d.executions} runs, ${d.calls} calls`),
        ),
      );
      svg.append(
        s(
          'rect',
          {
            x: x + bw / 2,
            y: y(d.observations, maxBar),
            width: bw / 2 - 1,
            height: hgt - 20 - y(d.observations, maxBar),
            fill: '#e8912d',
          },
          s('title', {}, `${d.day}: ${d.observations} observations`),
        ),
      );
      if (i % 5 === 0) svg.append(s('text', { x, y: hgt - 4 }, d.day.slice(5)));
    });
    const points = days.map((d, i) => `${left + i * bw + bw / 2},${y(d.edgesSoFar, maxEdges)}`).join(' ');
    svg.append(s('polyline', { points, fill: 'none', stroke: '#3a9d5d', 'stroke-width': 2 }));
    svg.append(s('text', { x: 2, y: 14 }, `${maxBar}`));
    return h(
      'div',
      { class: 'card' },
      svg,
      h(
        'div',
        { class: 'muted' },
        h('span', { class: 'chip' }, '■ runs (blue)'),
        h('span', { class: 'chip' }, '■ observations (orange)'),
        h('span', { class: 'chip' }, `— edges learned so far (green, up to ${maxEdges})`),
      ),
    );
  }

  // ---- calibration --------------------------------------------------------------------------
  const KIND_NAMES = {
    search: 'Tool search results',
    next: 'Next-tool suggestions',
    dag: 'DAG suggestions',
    recall: 'Recall labels',
    instinct: 'Instincts',
    skill: 'Skills',
  };

  async function calibrationPage() {
    const d = await api('/api/calibration');
    const at = typeof d.at === 'number' ? new Date(d.at).toISOString() : d.at;
    main.replaceChildren(
      h('h1', {}, `Calibration — scope ${d.scope}`),
      h(
        'p',
        { class: 'muted' },
        'Is a 0.7 right 70% of the time? For each kind of claim, the outcomes recorded for what was shown ' +
          '(accepted or rejected, used and succeeded or failed, validated or contradicted) are put in 10 bins by ' +
          'the confidence shown: each bar is how often the claims of a bin held, its dot sits at their mean ' +
          'confidence. On the dashed diagonal a confidence is exactly the rate it promises; below it, too sure. ' +
          `With ${d.minOutcomes} outcomes or more a map from confidence to the observed rate is learned (the green ` +
          'line) and results of that kind carry its probability beside the confidence.',
      ),
      h('p', { class: 'parts' }, `outcomes known at ${when(at)}`),
      h(
        'div',
        { class: 'diagrams' },
        d.kinds.map((k) => diagramCard(k, d.minOutcomes)),
      ),
    );
    document.body.dataset.pageRendered = 'calibration';
  }

  /** How many outcomes stand behind a kind's figures, and what follows from that, in plain words. */
  function outcomeWords(k, minOutcomes) {
    const name = (KIND_NAMES[k.kind] || k.kind).toLowerCase();
    if (k.outcomes === 0) return `No outcome recorded yet for ${name}: nothing to measure.`;
    const base =
      `${k.outcomes} outcome${k.outcomes === 1 ? '' : 's'} stand${k.outcomes === 1 ? 's' : ''} behind this ` +
      `diagram; ${k.positives} of them said the claim held.`;
    if (!k.enough)
      return `${base} Fewer than ${minOutcomes}: no map is learned yet, and ${name} show the seed confidence only.`;
    return `${base} Enough to learn the map: ${name} carry a probability beside their confidence.`;
  }

  /**
   * Which calibrator the kind's results use (the report's `selection`), in one plain line; none below the minimum.
   * The choice is made out of sample (each later run of outcomes predicted from those before), by Brier score.
   */
  function calibratorWords(k) {
    if (!k.enough) return null;
    const sel = k.selection;
    if (sel === undefined || sel === null)
      return 'Results use the seed confidence: too few outcomes yet to test the map out of sample.';
    const brier = (c) => fmt(sel.brier[c], 3);
    if (sel.calibrator === 'map')
      return (
        'Results use the learned map: it beat the seed confidence out of sample ' +
        `(Brier ${brier('map')} against ${brier('seed')}).`
      );
    if (sel.calibrator === 'logistic') {
      // Why, as the selection says: the seed refuted by Cox's test, or the choice among the others beaten.
      const what = 'Results use the logistic calibrator (a slope and an intercept on the log-odds): ';
      if (sel.seedRefuted) {
        const t = sel.miscalibration;
        const p = t.pValue < 0.0001 ? t.pValue.toExponential(1) : t.pValue.toFixed(4);
        return (
          `${what}Cox's test of calibration refuted the seed confidence on the newest ${t.outcomes} outcomes ` +
          `(p ${p}), and the logistic calibrator did better than it out of sample (Brier ${brier('logistic')} ` +
          `against ${brier('seed')}; the map ${brier('map')}).`
        );
      }
      const over = sel.logisticOverChoice ? sel.logisticOverChoice.over : 'seed';
      const others = { seed: 'the seed confidence', 'base-rate': 'the base rate', map: 'the learned map' };
      const rest = over === 'seed' ? `the map ${brier('map')}` : `the seed ${brier('seed')}`;
      return (
        `${what}it beat ${others[over]} (the choice among the others) out of sample by more than a standard ` +
        `error (Brier ${brier('logistic')} against ${brier(over)}; ${rest}).`
      );
    }
    if (sel.calibrator === 'base-rate')
      return (
        'Results use the base rate (the share of these claims that held): it beat the seed confidence and the map ' +
        `out of sample (Brier ${brier('base-rate')} against ${brier('seed')} and ${brier('map')}).`
      );
    return (
      'Results use the seed confidence: the map did not beat it out of sample ' +
      `(Brier ${brier('map')} against ${brier('seed')}).`
    );
  }

  function diagramCard(k, minOutcomes) {
    const stats = [
      h('span', {}, 'ECE ', h('b', {}, fmt(k.ece))),
      h('span', {}, 'Brier ', h('b', {}, fmt(k.brier))),
      k.calibrated
        ? h(
            'span',
            { title: 'the map learned on the earlier half of the outcomes, measured on the later half' },
            `with the map: ECE ${fmt(k.calibrated.ece)}, Brier ${fmt(k.calibrated.brier)}`,
          )
        : null,
    ];
    return h(
      'section',
      { class: 'card diagram', 'data-kind': k.kind },
      h('h2', {}, KIND_NAMES[k.kind] || k.kind),
      reliabilityDiagram(k),
      h('div', { class: 'stats' }, stats),
      h('p', { class: 'parts outcome-words' }, outcomeWords(k, minOutcomes)),
      k.enough ? h('p', { class: 'parts calibrator-words' }, calibratorWords(k)) : null,
    );
  }

  /**
   * A reliability diagram: observed rate against confidence, 0 to 1 on both axes. Per non-empty bin a bar over
   * its range (the rate its claims held), a dot at their mean confidence and the count above; the diagonal; the
   * learned map as a line when there is one.
   */
  function reliabilityDiagram(k) {
    const W = 300;
    const H = 240;
    const left = 30;
    const top = 12;
    const right = 8;
    const bottom = 36;
    const pw = W - left - right;
    const ph = H - top - bottom;
    const X = (c) => left + c * pw;
    const Y = (r) => top + (1 - r) * ph;
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      class: 'reliability',
      'data-kind': k.kind,
      'aria-label': `reliability diagram of ${KIND_NAMES[k.kind] || k.kind}: observed rate against confidence`,
    });
    svg.append(s('rect', { x: left, y: top, width: pw, height: ph, fill: '#fbfbfa', class: 'frame' }));
    for (const t of [0, 0.5, 1]) {
      svg.append(s('line', { x1: X(t), y1: Y(0), x2: X(t), y2: Y(0) + 4, class: 'axis' }));
      svg.append(s('text', { x: X(t) - (t === 1 ? 12 : t === 0 ? 0 : 8), y: H - 20 }, fmt(t, 1)));
      svg.append(s('line', { x1: left - 4, y1: Y(t), x2: left, y2: Y(t), class: 'axis' }));
      svg.append(s('text', { x: 2, y: Y(t) + 4 }, fmt(t, 1)));
    }
    svg.append(s('text', { x: left + pw / 2 - 50, y: H - 4 }, 'confidence shown →'));
    svg.append(s('text', { x: left + 4, y: top + 11 }, '↑ observed rate'));
    const marks = [];
    for (const b of k.bins) {
      if (b.count === 0 || b.observedRate === null) continue;
      const tip =
        `${fmt(b.lo, 1)}–${fmt(b.hi, 1)}: ${b.count} outcome${b.count === 1 ? '' : 's'}, ` +
        `mean confidence ${fmt(b.meanConfidence)}, held ${pct(b.observedRate)}`;
      svg.append(
        s(
          'rect',
          {
            x: X(b.lo) + 1,
            y: Y(b.observedRate),
            width: Math.max(1, X(b.hi) - X(b.lo) - 2),
            height: Math.max(0.5, Y(0) - Y(b.observedRate)),
            class: 'rel-bar',
          },
          s('title', {}, tip),
        ),
      );
      marks.push(
        s(
          'circle',
          { cx: X(b.meanConfidence), cy: Y(b.observedRate), r: 3.5, class: 'rel-point' },
          s('title', {}, tip),
        ),
      );
      marks.push(
        s(
          'text',
          { x: X((b.lo + b.hi) / 2) - 6, y: Math.max(top + 8, Y(b.observedRate) - 4), class: 'count' },
          b.count,
        ),
      );
    }
    // The diagonal over the bars (a bar reaching it is a bin whose claims held as often as they said), then the dots.
    svg.append(s('line', { x1: X(0), y1: Y(0), x2: X(1), y2: Y(1), class: 'diag' }), ...marks);
    if (Array.isArray(k.map) && k.map.length > 0) {
      // Flat beyond its first and last knots, as the map is applied.
      const knots = k.map;
      const points = [
        [0, knots[0].probability],
        ...knots.map((p) => [p.confidence, p.probability]),
        [1, knots[knots.length - 1].probability],
      ];
      svg.append(
        s(
          'polyline',
          { points: points.map(([c, p]) => `${X(c)},${Y(p)}`).join(' '), class: 'rel-map' },
          s('title', {}, 'the learned map: confidence → probability'),
        ),
      );
    }
    if (k.outcomes === 0) svg.append(s('text', { x: left + pw / 2 - 40, y: top + ph / 2 }, 'no outcomes yet'));
    return svg;
  }

  // ---- learning -----------------------------------------------------------------------------
  async function learningPage() {
    const d = await api('/api/learning');
    const writable = await scopesInfo.then(
      (x) => x.writable === true,
      () => false,
    );
    const mt = d.metrics;
    const verdictButtons = (id) =>
      writable
        ? h(
            'div',
            {},
            ['validated', 'contradicts'].map((v) =>
              h('button', { class: 'ghost', onclick: () => giveVerdict(id, v) }, v),
            ),
          )
        : null;
    const evidenceList = (ev, total = ev.length) =>
      h(
        'details',
        {},
        h(
          'summary',
          {},
          `${total} observation${total === 1 ? '' : 's'}${total > ev.length ? ` (the latest ${ev.length} shown)` : ''}`,
        ),
        h(
          'ul',
          {},
          ev.map((o) =>
            h(
              'li',
              {},
              o.gone
                ? h('span', { class: 'muted' }, `${o.id} (forgotten)`)
                : `[${o.type}] ${o.observation} (${fmt(o.confidence, 2)}, ${when(o.at)})`,
            ),
          ),
        ),
      );
    // The learned probability beside the confidence (docs/calibration.md), or why there is none yet.
    const probabilityLine = (x) =>
      h(
        'div',
        { class: 'parts probability' },
        typeof x.probability === 'number'
          ? `probability ${x.probability.toFixed(3)} (${x.probabilityBasis.calibrator}, ` +
              `${x.probabilityBasis.outcomes} ${x.probabilityBasis.kind} outcomes)`
          : `no learned probability: ${x.probabilityWhy ?? 'none given'}`,
      );
    const historyList = (x) =>
      h(
        'div',
        { class: 'parts' },
        `created ${when(x.createdAt)} · updated ${when(x.updatedAt)}`,
        x.feedback.map((f) => h('div', {}, `${when(f.at)} ${f.kind}${f.note ? `: ${f.note}` : ''}`)),
      );
    main.replaceChildren(
      h('h1', {}, `Learning — scope ${d.scope}`),
      h(
        'div',
        { class: 'cards' },
        h(
          'div',
          { class: 'card' },
          h('div', { class: 'muted' }, 'observations per type'),
          barsOf(Object.entries(mt.observations.byType).map(([label, count]) => ({ label, count }))),
        ),
        h(
          'div',
          { class: 'card', id: 'conversion' },
          h('div', { class: 'muted' }, 'instinct → skill conversion'),
          h('div', { class: 'big' }, pct(mt.conversionRate)),
          h('div', {}, `${mt.instincts.promoted} promoted of ${mt.instincts.total} instincts; ${mt.skills} skills`),
        ),
        h(
          'div',
          { class: 'card', id: 'precision' },
          h('div', { class: 'muted' }, 'suggestion precision (accepted / shown)'),
          h('div', { class: 'big' }, pct(mt.suggestions.precision)),
          h(
            'div',
            {},
            `${mt.suggestions.accepted} accepted, ${mt.suggestions.rejected} rejected of ${mt.suggestions.shown} shown`,
          ),
          tableOf(
            {},
            h(
              'tbody',
              {},
              mt.suggestions.bySurface.map((x) =>
                h(
                  'tr',
                  {},
                  h('td', {}, x.surface),
                  h('td', { class: 'num' }, `${x.accepted}/${x.shown}`),
                  h('td', { class: 'num' }, pct(x.precision)),
                ),
              ),
            ),
          ),
        ),
      ),
      h('h2', {}, `Skills (${d.skills.length})`),
      tableOf(
        { id: 'skills' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'skill'),
            h('th', {}, 'rules'),
            h('th', {}, 'confidence now'),
            h('th', {}, 'evidence'),
            h('th', {}, 'history'),
          ),
        ),
        h(
          'tbody',
          {},
          d.skills.map((x) =>
            h(
              'tr',
              {},
              h('td', {}, h('b', {}, x.name), h('div', { class: 'parts' }, x.description)),
              h(
                'td',
                {},
                h(
                  'ul',
                  {},
                  x.rules.map((r) => h('li', {}, r)),
                ),
              ),
              h(
                'td',
                { title: partsText(x.parts) },
                meter(x.confidence),
                `${fmt(x.confidence)} `,
                band(x.band),
                h('div', { class: 'parts' }, `stored ${fmt(x.parts.stored)}, idle ${fmt(x.parts.idleDays, 1)} days`),
                probabilityLine(x),
              ),
              h('td', {}, evidenceList(x.evidence, x.evidenceTotal)),
              h('td', {}, historyList(x), verdictButtons(x.id)),
            ),
          ),
        ),
      ),
      h('h2', {}, `Instincts (${d.instincts.length})`),
      tableOf(
        { id: 'instincts' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'instinct'),
            h('th', {}, 'status'),
            h('th', {}, 'confidence'),
            h('th', {}, 'evidence'),
            h('th', {}, 'history'),
          ),
        ),
        h(
          'tbody',
          {},
          d.instincts.map((x) =>
            h(
              'tr',
              {},
              h('td', {}, x.text),
              h('td', {}, x.status),
              h('td', {}, meter(x.confidence), `${fmt(x.confidence)} `, band(x.band), probabilityLine(x)),
              h('td', {}, evidenceList(x.evidence, x.evidenceTotal)),
              h('td', {}, historyList(x), x.status === 'active' ? verdictButtons(x.id) : null),
            ),
          ),
        ),
      ),
      h('h2', {}, 'Recent evolutions'),
      d.evolutions.length === 0
        ? h('p', { class: 'muted' }, 'no evolution log in this folder yet (credence evolve writes one)')
        : tableOf(
            { id: 'evolutions' },
            h(
              'tbody',
              {},
              d.evolutions.map((e) => h('tr', {}, h('td', {}, when(e.at)), h('td', {}, e.kind), h('td', {}, e.detail))),
            ),
          ),
    );
    document.body.dataset.pageRendered = 'learning';
  }

  async function giveVerdict(id, verdict) {
    try {
      await api('/api/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id, verdict }),
      });
      await learningPage();
    } catch (error) {
      alert(error.message);
    }
  }

  // ---- runs ---------------------------------------------------------------------------------
  async function runsPage() {
    const d = await api('/api/runs?limit=50');
    main.replaceChildren(
      h('h1', {}, `Runs — scope ${d.scope}`),
      h(
        'p',
        { class: 'muted' },
        'A run succeeds when its quality is at least 0.5 (what credence runs prints): ' +
          'its quality is 0 when a failure stands (a failed call no later call of the same tool made good, ' +
          'a flow that stopped, a task that failed), ' +
          'else the confidence the run was recorded with when it has one, else the mean of its calls’ worth ' +
          '(a failed call 0, another its outcome confidence over 0.7). Hover a call for its outcome confidence.',
      ),
      tableOf(
        { id: 'runs' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'started'),
            h('th', {}, 'intent'),
            h('th', {}, 'calls and outcomes'),
            h('th', {}, 'quality'),
          ),
        ),
        h(
          'tbody',
          {},
          d.runs.map((r) =>
            h(
              'tr',
              {},
              h('td', {}, when(r.startedAt)),
              h('td', {}, r.intent, r.intentKind ? h('div', { class: 'parts' }, r.intentKind) : null),
              h(
                'td',
                {},
                r.nodes.map((c) =>
                  h(
                    'span',
                    {
                      class: `chip ${c.status}`,
                      title: `${c.status}, confidence ${fmt(c.confidence)} (${partsText(c.parts)})`,
                    },
                    c.tool,
                    c.retries > 0 ? ` ↻${c.retries}` : '',
                    c.status === 'success' ? '' : ` ${c.status}`,
                  ),
                ),
              ),
              h(
                'td',
                { class: 'quality' },
                meter(r.quality),
                `${r.qualityText} ${r.succeeded ? 'success' : 'failure'}`,
                r.confidence === null
                  ? null
                  : h('div', { class: 'parts' }, `recorded with confidence ${fmt(r.confidence)} `, band(r.band)),
              ),
            ),
          ),
        ),
      ),
    );
    document.body.dataset.pageRendered = 'runs';
  }

  // ---- ask ----------------------------------------------------------------------------------
  async function askPage() {
    const input = h('input', {
      type: 'search',
      name: 'q',
      id: 'ask-input',
      placeholder: 'a tool, a workflow, a decision… e.g. "read the config file and validate it"',
      value: params.get('q') || '',
      autofocus: true,
    });
    const context = h('input', {
      type: 'text',
      name: 'context',
      id: 'ask-context',
      placeholder: 'tools already used, e.g. Read,Grep',
      value: params.get('context') || '',
      size: 24,
      title: 'context tools: the graph part of the score comes from them',
    });
    const results = h('div', { id: 'ask-results' });
    // Only the latest question is shown: asking again (or Back, Forward) cancels the answer still on its way,
    // and an answer that comes after a later question was asked is dropped, however late it comes.
    let asked = 0;
    let pending = null;
    const form = h('form', { class: 'ask-form' }, input, context, h('button', { type: 'submit' }, 'Ask'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const next = new URLSearchParams(location.search);
      next.set('q', input.value);
      if (context.value.trim()) next.set('context', context.value.trim());
      else next.delete('context');
      // Each question is a history entry of its own: Back returns to the one before.
      const address = `${location.pathname}?${next}`;
      if (address !== location.pathname + location.search) history.pushState(null, '', address);
      run(input.value);
    });
    // Back or Forward to another question: asked again from the address.
    window.addEventListener('popstate', () => {
      const now = new URLSearchParams(location.search);
      input.value = now.get('q') || '';
      context.value = now.get('context') || '';
      if (input.value.trim() === '') results.replaceChildren();
      else run(input.value);
    });
    main.replaceChildren(h('div', { class: 'ask' }, h('h1', {}, 'Ask'), form, results));
    document.body.dataset.pageRendered = 'ask';
    if (input.value.trim() !== '') await run(input.value);

    async function run(q) {
      if (q.trim() === '') return;
      asked += 1;
      const mine = asked;
      pending?.abort();
      const abort = new AbortController();
      pending = abort;
      results.replaceChildren(h('p', { class: 'muted' }, 'Searching…'));
      delete document.body.dataset.askResults;
      try {
        const ctx = context.value.trim();
        const d = await api(`/api/ask?q=${encodeURIComponent(q)}${ctx ? `&context=${encodeURIComponent(ctx)}` : ''}`, {
          signal: abort.signal,
        });
        if (mine !== asked) return;
        results.replaceChildren(...askResults(d));
        results.dataset.question = q;
        document.body.dataset.askResults = String(d.tools.length);
      } catch (error) {
        if (mine !== asked) return;
        results.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
        document.body.dataset.askResults = 'error';
      }
    }
  }

  function askResults(d) {
    // A result's probability as the engine returned it: the value, or why there is none (hover).
    const probability = (r) =>
      typeof r.probability === 'number'
        ? h('span', { class: 'probability', title: probabilityTitle(r) }, fmt(r.probability))
        : h('span', { class: 'muted', title: r.probabilityWhy || 'no probability' }, '—');
    const probabilityTitle = (r) =>
      r.probabilityBasis
        ? `learned from ${r.probabilityBasis.outcomes} outcomes of ${r.probabilityBasis.kind} ` +
          `(${r.probabilityBasis.calibrator})`
        : 'probability';
    const dag = d.dag;
    return [
      h('h2', {}, `Tools (${d.tools.length})`),
      h(
        'p',
        { class: 'parts' },
        'Each score is the sum of the parts the engine returned, as credence tools search prints it: the search ' +
          "(α × semantic + (1 − α) × graph), weighed against the past runs' vote when past runs are near, plus " +
          'any feedback. Without context tools the graph has nothing to say about the query and α is 1. ' +
          'probability: what such a score has turned out to mean here, once enough outcomes are recorded.',
      ),
      d.warning ? h('p', { class: 'warn', id: 'ask-tools-warning', role: 'note' }, d.warning) : null,
      d.tools.length === 0
        ? h('p', { class: 'muted' }, 'no tool matches by words or meaning')
        : tableOf(
            { id: 'ask-tools' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { class: 'num' }, '#'),
                h('th', {}, 'tool'),
                h('th', { class: 'num' }, 'score'),
                h('th', { class: 'num' }, 'probability'),
                h('th', {}, 'why this score'),
                h('th', { class: 'num' }, 'semantic'),
                h('th', { class: 'num' }, 'graph'),
                h('th', { class: 'num' }, 'α'),
                h('th', {}, 'α rule'),
                h('th', {}, 'details'),
              ),
            ),
            h(
              'tbody',
              {},
              d.tools.map((r, i) =>
                h(
                  'tr',
                  { 'data-tool': r.tool },
                  h('td', { class: 'num' }, i + 1),
                  h('td', {}, h('b', {}, r.tool)),
                  h('td', { class: 'num' }, fmt(r.score)),
                  h('td', { class: 'num' }, probability(r)),
                  h('td', { class: 'parts explanation' }, r.explanation),
                  h('td', { class: 'num' }, fmt(r.semantic)),
                  h('td', { class: 'num' }, fmt(r.graph)),
                  h('td', { class: 'num' }, fmt(r.alpha)),
                  h('td', {}, r.alphaRule),
                  h('td', { class: 'parts' }, partsText(r.parts)),
                ),
              ),
            ),
          ),
      h('h2', {}, 'Workflow (DAG)'),
      dag.mode !== 'suggestion'
        ? h(
            'p',
            { class: 'muted' },
            `no DAG: ${dag.explicitRequiredBecause ?? 'no candidate, an explicit workflow is required'}`,
          )
        : h(
            'div',
            { class: 'card', id: 'ask-dag' },
            h(
              'div',
              {},
              h('b', {}, `confidence ${fmt(dag.confidence)} `),
              band(bandOf(dag.confidence)),
              ` tier ${dag.tier}, density ${fmt(dag.density, 4)}`,
            ),
            (dag.explanation || []).map((line) => h('div', { class: 'parts dag-why' }, line)),
            h('div', { class: 'parts' }, 'probability ', probability(dag)),
            dag.warning ? h('p', { class: 'warn' }, dag.warning) : null,
            h(
              'ol',
              {},
              dag.dag.tasks.map((t) => {
                const why = dag.rationale.find((r) => r.tool === t.tool);
                const vote = dag.memory?.tools.find((v) => v.tool === t.tool);
                // The past runs are listed once, under the tasks; each task's rationale in full is one click away.
                const reasons = why
                  ? [
                      `from ${why.sources.join(' + ')}, score ${fmt(why.score)}`,
                      why.search === null || why.search === undefined ? '' : `, tool search ${fmt(why.search)}`,
                      vote ? `, vote of the past runs ${fmt(vote.vote, 2)}` : '',
                    ].join('')
                  : null;
                return h(
                  'li',
                  {},
                  h('b', {}, t.tool),
                  t.dependsOn.length ? ` after ${t.dependsOn.join(', ')}` : '',
                  why
                    ? h(
                        'div',
                        { class: 'parts' },
                        reasons,
                        h('details', {}, h('summary', {}, 'the rationale in full'), why.why),
                      )
                    : null,
                );
              }),
            ),
            (d.dagRuns || []).length === 0
              ? null
              : [
                  h('div', {}, h('b', {}, 'The past runs it follows')),
                  h(
                    'ul',
                    { id: 'dag-runs' },
                    d.dagRuns.map((r) =>
                      h(
                        'li',
                        { title: r.ids.join(', ') },
                        `"${r.title}"`,
                        h(
                          'span',
                          { class: 'muted' },
                          ` · ${r.repeats > 1 ? `${r.repeats} runs` : r.id} · similarity ${fmt(r.similarity, 2)}`,
                        ),
                      ),
                    ),
                  ),
                ],
          ),
      h('h2', {}, `Memories (${d.memories.length})`),
      d.memories.length === 0
        ? h('p', { class: 'muted' }, 'nothing recalled')
        : tableOf(
            { id: 'ask-memories' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { class: 'num' }, '#'),
                h('th', {}, 'memory'),
                h('th', {}, 'kind'),
                h('th', {}, 'label'),
                h('th', { class: 'num' }, 'score'),
                h('th', { class: 'num' }, 'probability'),
                h('th', {}, 'parts'),
              ),
            ),
            h(
              'tbody',
              {},
              d.memories.map((r, i) =>
                h(
                  'tr',
                  {},
                  h('td', { class: 'num' }, i + 1),
                  h(
                    'td',
                    { class: 'memory' },
                    h('b', {}, r.title),
                    r.repeats > 1
                      ? h(
                          'span',
                          { class: 'muted' },
                          r.kind === 'execution'
                            ? ` · ${r.repeats} runs with this intent`
                            : ` · ${r.repeats} ${r.kind}s with this text`,
                        )
                      : null,
                    r.snippet ? h('div', { class: 'snippet' }, r.snippet) : null,
                    h('div', { class: `memory-life status-${r.status}` }, memoryLife(r)),
                  ),
                  h('td', {}, r.kind),
                  h(
                    'td',
                    {},
                    h('span', { class: `band label-${r.label}` }, r.label),
                    r.parts.withheld ? h('div', { class: 'parts' }, r.parts.withheld) : null,
                  ),
                  h('td', { class: 'num' }, fmt(r.score)),
                  h('td', { class: 'num' }, probability(r)),
                  h('td', { class: 'parts' }, partsText(r.parts)),
                ),
              ),
            ),
          ),
    ];
  }

  const pages = {
    graph: graphPage,
    confidence: confidencePage,
    calibration: calibrationPage,
    learning: learningPage,
    runs: runsPage,
    ask: askPage,
  };
  const view = pages[page];
  if (view === undefined) fail(new Error(`no page ${page}`));
  else view().catch(fail);
})();
