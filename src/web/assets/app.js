// Credence dashboard: hand-written, no framework, no CDN. One script for every page; the path
// picks the view (/graph, /confidence, /learning, /runs, /ask). Data comes from /api/ (see docs/dashboard.md).
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
  const partsText = (parts) =>
    Object.entries(parts || {})
      .map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : String(v)}`)
      .join('  ');
  const withScope = (path) => {
    if (!scope) return path;
    return `${path}${path.includes('?') ? '&' : '?'}scope=${encodeURIComponent(scope)}`;
  };

  async function api(path, init) {
    const headers = { accept: 'application/json', ...init?.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(withScope(path), { ...init, headers });
    const body = await res.json().catch(() => ({ error: { message: `HTTP ${res.status}` } }));
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
    const state = { types: new Set(data.types), min: 0, selected: -1, zoom: 1, panX: 0, panY: 0, detail: null };
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
      find,
      ids,
      h('span', { class: 'muted', id: 'graph-counts' }, `${toolsShown} · ${m} edges · layout ${data.layout}`),
    );
    const legend = h('div', { class: 'legend' }, legendRows());
    main.replaceChildren(
      h(
        'div',
        { class: 'graph-page' },
        h('div', { class: 'graph-col' }, toolbar, h('div', { class: 'graph-wrap' }, canvas, legend)),
        side,
      ),
    );

    slider.addEventListener('input', () => {
      state.min = Number(slider.value);
      minLabel.textContent = state.min.toFixed(2);
      draw();
    });
    find.addEventListener('change', () => {
      const id = find.value.trim();
      const i = data.nodes.id.indexOf(id);
      if (i >= 0) select(i);
      else if (id !== '' && hiddenTools > 0) showHidden(id);
    });

    // Radii by PageRank: the most central tool is the largest.
    const maxPr = Math.max(1e-12, ...data.nodes.pageRank.slice(0, 1));
    const base = n > 1000 ? 1.5 : n > 200 ? 2.5 : 4;
    const radius = Float32Array.from(data.nodes.pageRank, (pr) => base + (n > 1000 ? 6 : 14) * Math.sqrt(pr / maxPr));
    const px = new Float32Array(n);
    const py = new Float32Array(n);
    let width = 0;
    let height = 0;

    function project() {
      const scale = (Math.min(width, height) / 2 - 40) * state.zoom;
      for (let i = 0; i < n; i += 1) {
        px[i] = width / 2 + state.panX + data.nodes.x[i] * scale;
        py[i] = height / 2 + state.panY + data.nodes.y[i] * scale;
      }
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
      let drawnEdges = 0;
      let drawnNodes = 0;
      for (let e = 0; e < m; e += 1) {
        const type = data.types[data.edges.type[e]];
        const c = data.edges.confidence[e];
        if (!state.types.has(type) || c < state.min - 1e-9) continue;
        shown += 1;
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
      // Labels: every tool on a small graph, the most central ones on a large one.
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = '#1d2125';
      const labelled = n <= 80 ? n : 25;
      for (let i = 0; i < labelled; i += 1) ctx.fillText(data.nodes.id[i], px[i] + radius[i] + 3, py[i] + 4);
      if (sel >= labelled) ctx.fillText(data.nodes.id[sel], px[sel] + radius[sel] + 3, py[sel] + 4);
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

    async function select(i) {
      state.selected = i;
      draw();
      const id = data.nodes.id[i];
      side.replaceChildren(h('h1', {}, id), h('p', { class: 'muted' }, 'Loading…'));
      try {
        const tool = await api(`/api/tool/${encodeURIComponent(id)}`);
        if (state.selected === i) side.replaceChildren(...toolDetail(tool, data.nodes.pageRank[i]));
        document.body.dataset.selectedTool = id;
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
        const tool = await api(`/api/tool/${encodeURIComponent(id)}`);
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
      const i = nodeAt(e.clientX - rect.left, e.clientY - rect.top);
      if (i >= 0) select(i);
    });
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        state.zoom = Math.max(0.3, Math.min(30, state.zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15)));
        draw();
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
        h(
          'table',
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

  function edgeTable(edges, end) {
    if (edges.length === 0) return h('p', { class: 'muted' }, 'none');
    return h(
      'table',
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
          h('th', { class: 'num' }, 'count'),
          h('th', {}, 'last seen'),
          h('th', { class: 'num' }, 'confidence'),
        ),
      ),
      h(
        'tbody',
        {},
        edges.map((e) =>
          h(
            'tr',
            { 'data-edge': `${e.from}>${e.to}:${e.type}` },
            h('td', {}, end === 'out' ? e.to : e.from),
            h('td', {}, e.type),
            h('td', {}, e.source),
            h('td', { class: 'num', title: `${e.successes} successes, ${e.failures} failures` }, e.count),
            h('td', {}, e.lastSeen ? e.lastSeen.slice(0, 10) : '—'),
            h('td', { class: 'num', title: partsText(e.parts) }, fmt(e.confidence), ' ', band(e.band)),
          ),
        ),
      ),
    );
  }

  function toolDetail(tool, pageRank) {
    return [
      h('h1', {}, tool.id),
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
      edgeTable(tool.outgoing, 'out'),
      h('h2', {}, `Edges in (${tool.incoming.length})`),
      edgeTable(tool.incoming, 'in'),
      h(
        'p',
        { class: 'parts' },
        'confidence = type weight × source modifier × 0.5^(idle days / 60); hover a confidence for its parts.',
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
          h(
            'table',
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
          h(
            'table',
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
      h(
        'table',
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
              ),
              h('td', {}, evidenceList(x.evidence, x.evidenceTotal)),
              h('td', {}, historyList(x), verdictButtons(x.id)),
            ),
          ),
        ),
      ),
      h('h2', {}, `Instincts (${d.instincts.length})`),
      h(
        'table',
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
              h('td', {}, meter(x.confidence), `${fmt(x.confidence)} `, band(x.band)),
              h('td', {}, evidenceList(x.evidence, x.evidenceTotal)),
              h('td', {}, historyList(x), x.status === 'active' ? verdictButtons(x.id) : null),
            ),
          ),
        ),
      ),
      h('h2', {}, 'Recent evolutions'),
      d.evolutions.length === 0
        ? h('p', { class: 'muted' }, 'no evolution log in this folder yet (credence evolve writes one)')
        : h(
            'table',
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
        "A run's confidence is the mean of its calls' outcome confidence: " +
          'success 0.7, partial 0.5, failure 0.3, −0.1 a retry, +0.05 a later call that used its output (SPEC §7).',
      ),
      h(
        'table',
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
            h('th', {}, 'confidence'),
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
              h('td', {}, r.confidence === null ? '—' : [meter(r.confidence), `${fmt(r.confidence)} `, band(r.band)]),
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
    const form = h('form', { class: 'ask-form' }, input, context, h('button', { type: 'submit' }, 'Ask'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const next = new URLSearchParams(location.search);
      next.set('q', input.value);
      if (context.value.trim()) next.set('context', context.value.trim());
      else next.delete('context');
      history.replaceState(null, '', `${location.pathname}?${next}`);
      run(input.value);
    });
    main.replaceChildren(h('div', { class: 'ask' }, h('h1', {}, 'Ask'), form, results));
    document.body.dataset.pageRendered = 'ask';
    if (input.value.trim() !== '') await run(input.value);

    async function run(q) {
      if (q.trim() === '') return;
      results.replaceChildren(h('p', { class: 'muted' }, 'Searching…'));
      try {
        const ctx = context.value.trim();
        const d = await api(`/api/ask?q=${encodeURIComponent(q)}${ctx ? `&context=${encodeURIComponent(ctx)}` : ''}`);
        results.replaceChildren(...askResults(d));
        document.body.dataset.askResults = String(d.tools.length);
      } catch (error) {
        results.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
        document.body.dataset.askResults = 'error';
      }
    }
  }

  function askResults(d) {
    const split = (r) => {
      const bar = h(
        'div',
        {
          class: 'split',
          title: `α·semantic ${fmt(r.alpha * r.semantic)} + (1−α)·graph ${fmt((1 - r.alpha) * r.graph)}`,
        },
        h('span', { class: 'sem' }),
        h('span', { class: 'gra' }),
      );
      bar.children[0].style.width = `${r.alpha * r.semantic * 100}%`;
      bar.children[1].style.width = `${(1 - r.alpha) * r.graph * 100}%`;
      return bar;
    };
    const dag = d.dag;
    return [
      h('h2', {}, `Tools (${d.tools.length})`),
      h(
        'p',
        { class: 'parts' },
        'score = α · semantic + (1 − α) · graph; the bar shows the two parts (purple: meaning, teal: graph). ' +
          'Without context tools the graph has nothing to say about the query and α is 1.',
      ),
      d.tools.length === 0
        ? h('p', { class: 'muted' }, 'no tool matches by words or meaning')
        : h(
            'table',
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
                h('th', {}, 'parts'),
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
                  h('td', {}, split(r)),
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
        ? h('p', { class: 'muted' }, 'no candidate: an explicit workflow is required')
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
            h(
              'div',
              { class: 'parts' },
              `= hybrid ${fmt(dag.parts.hybrid)} × ${dag.weights.hybrid} ` +
                `+ PageRank ${fmt(dag.parts.pageRank, 4)} × ${dag.weights.pageRank} ` +
                `+ path ${fmt(dag.parts.pathStrength)} × ${dag.weights.path}`,
            ),
            dag.warning ? h('p', { class: 'warn' }, dag.warning) : null,
            h(
              'ol',
              {},
              dag.dag.tasks.map((t) => {
                const why = dag.rationale.find((r) => r.tool === t.tool);
                return h(
                  'li',
                  {},
                  h('b', {}, t.tool),
                  t.dependsOn.length ? ` after ${t.dependsOn.join(', ')}` : '',
                  why
                    ? h(
                        'div',
                        { class: 'parts' },
                        `${why.why} (score ${fmt(why.score)}, from ${why.sources.join(' + ')})`,
                      )
                    : null,
                );
              }),
            ),
          ),
      h('h2', {}, `Memories (${d.memories.length})`),
      d.memories.length === 0
        ? h('p', { class: 'muted' }, 'nothing recalled')
        : h(
            'table',
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
                    {},
                    r.title,
                    r.repeats > 1 ? h('span', { class: 'muted' }, ` · ${r.repeats} runs with this intent`) : null,
                  ),
                  h('td', {}, r.kind),
                  h(
                    'td',
                    {},
                    h('span', { class: `band label-${r.label}` }, r.label),
                    r.parts.withheld ? h('div', { class: 'parts' }, r.parts.withheld) : null,
                  ),
                  h('td', { class: 'num' }, fmt(r.score)),
                  h('td', { class: 'parts' }, partsText(r.parts)),
                ),
              ),
            ),
          ),
    ];
  }

  const pages = { graph: graphPage, confidence: confidencePage, learning: learningPage, runs: runsPage, ask: askPage };
  const view = pages[page];
  if (view === undefined) fail(new Error(`no page ${page}`));
  else view().catch(fail);
})();
