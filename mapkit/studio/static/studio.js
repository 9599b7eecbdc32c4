// mapkit studio: the page. Plain JavaScript, no build step, no libraries.
// The server owns checks, rendering and play-tests (docs/studio.md); this file owns
// drawing gestures, undo/redo and the browser-side autosave.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const HISTORY = 200;
// New lines take colours of mapkit.checks.colour.PALETTE (GET /api/palette): every pair passes DES003.
let PALETTE = [];
// The rules' choices (GET /api/rulesets): rulesets, the all-lines bonus's conditions, and how
// many branches a line may have (the map schema's limit) and how it pays for them.
let RULES = { rulesets: [], default: "", conditions: [], max_branches: 0, branch_scoring: [] };
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));
const q = (id) => document.querySelector(`[data-testid="${id}"]`);
// The session token of the address mapkit studio printed: every request carries it.
const TOKEN = document.querySelector('meta[name="mapkit-token"]').content;

const S = {
  doc: null, revision: null, path: "", readonly: false, savedText: "",
  undo: [], redo: [], tool: "select", sel: null, pending: null,
  layout: null, sheetRevision: null, diags: [], ix: {}, view: null,
  grid: 0.5, snap: true, autoFit: true, autoShapes: new Set(), labels: false, draft: true, paper: "a4", heat: false,
  syncing: false, needSync: false, drag: null, guides: [], rubber: null, playtest: null,
};

// ---- model helpers ------------------------------------------------------------------------
const stations = () => S.doc.stations || (S.doc.stations = []);
const lines = () => S.doc.lines || (S.doc.lines = []);
const station = (id) => stations().find((s) => s.id === id);
const line = (id) => lines().find((l) => l.id === id);
// A branching line's stops run to the fork, its branches' on from there (rules-notes 23).
const allStops = (l) => [...(l.stops || []), ...(l.branches || []).flatMap((b) => b.stops || [])];
const paths = (l) => (l.branches || []).length
  ? l.branches.map((b) => [...(l.stops || []), ...(b.stops || [])]) : [l.stops || []];
const linesAt = (id) => lines().filter((l) => allStops(l).includes(id)).map((l) => l.id);
// A branch's name, as the sheet's panel row and the tag at its end print it (A1, A2, ...).
const branchName = (l, b) => `${l.id}${b + 1}`;
// Why a line cannot get another branch, or "" when it can.
function noBranch(l) {
  if (l.loop) return "a loop cannot fork";
  if (l.both_ends) return "a branching line starts at its wagon only (untick both ends)";
  const n = (l.branches || []).length;
  if (n && n >= RULES.max_branches) return `a line has at most ${RULES.max_branches} branches`;
  return "";
}
// A branching line left with one branch (or none) is a plain line again: that branch
// continues the trunk, and what it paid is what the line pays.
function foldBranches(l) {
  if (!l.branches) return;
  l.branches = l.branches.filter((b) => b.stops.length);
  if (l.branches.length > 1) return;
  const [only] = l.branches;
  if (only) {
    l.stops.push(...only.stops);
    if (only.points) l.points = only.points;
  }
  delete l.branches;
  delete l.branch_scoring;
}

function freeStationId() {
  const used = new Set(stations().map((s) => s.id));
  for (let i = stations().length + 1; ; i++) if (!used.has(`s${i}`)) return `s${i}`;
}
function freeLineId() {
  const used = new Set(lines().map((l) => l.id));
  for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") if (!used.has(c)) return c;
  for (let i = 1; ; i++) if (!used.has(`L${i}`)) return `L${i}`;
}
function freeColour() {
  const used = new Set(lines().map((l) => (l.color || "").toLowerCase()));
  return PALETTE.find((c) => !used.has(c)) || PALETTE[lines().length % PALETTE.length];
}
const round = (v) => Math.round(v * 1000) / 1000;

function neighbours(id) {
  const out = [];
  for (const l of lines()) {
    for (const stops of paths(l)) {
      const i = stops.indexOf(id);
      if (i < 0) continue;
      if (i > 0) out.push(stops[i - 1]);
      if (i < stops.length - 1) out.push(stops[i + 1]);
      else if (l.loop && stops.length > 2) out.push(stops[0]);
    }
  }
  return out.filter((n) => station(n)).map((n) => station(n));
}

function autoDepot(l) {
  const a = station(l.stops[0]);
  const b = station(l.stops[1]);
  let dx = a.x - b.x;
  let dy = a.y - b.y;
  const len = Math.hypot(dx, dy) || 1;
  dx /= len; dy /= len;
  const k = Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) * (Math.PI / 4);
  const d = 3 * S.grid;
  l.depot = { x: round(a.x + Math.cos(k) * d), y: round(a.y + Math.sin(k) * d) };
}

// A polyline with 45-degree bends from the depot through every stop (shape "octilinear").
function octilinearShape(l) {
  const pts = [[l.depot.x, l.depot.y]];
  const stops = l.stops.map((id) => station(id)).filter(Boolean);
  const path = l.loop ? [...stops, stops[0]] : stops;
  for (const s of path) {
    const [px, py] = pts[pts.length - 1];
    const dx = s.x - px;
    const dy = s.y - py;
    const ax = Math.abs(dx);
    const ay = Math.abs(dy);
    if (ax > 1e-9 && ay > 1e-9 && Math.abs(ax - ay) > 1e-9) {
      if (ax > ay) pts.push([round(px + Math.sign(dx) * (ax - ay)), py]);
      else pts.push([px, round(py + Math.sign(dy) * (ay - ax))]);
    }
    pts.push([s.x, s.y]);
  }
  return pts;
}

// Shapes the studio drew (45-degree bends) follow the stations; a shape from the file is
// left as it is (REF007 says when it no longer passes its stops).
function refreshShapes() {
  for (const l of lines()) {
    if (S.autoShapes.has(l.id) && l.shape && l.depot && l.stops.every((s) => station(s))) l.shape = octilinearShape(l);
  }
}
function findAutoShapes() {
  S.autoShapes = new Set(lines().filter((l) => l.shape && l.depot && l.stops.every((s) => station(s))
    && JSON.stringify(l.shape) === JSON.stringify(octilinearShape(l))).map((l) => l.id));
}

// ---- history ------------------------------------------------------------------------------
function snapshot() { return JSON.stringify(S.doc); }

// An undo step: the map as text, and the background's placement (edit-time only, never
// in the file), so that one undo takes back whichever of them an edit changed.
function step(doc = snapshot(), bg = S.bg) { return { doc, bg: bg ? { ...bg } : null }; }
function remember(before) {
  S.undo.push(before);
  if (S.undo.length > HISTORY) S.undo.shift();
  S.redo = [];
}
function edit(fn) {
  const before = snapshot();
  fn(S.doc);
  refreshShapes();
  if (snapshot() === before) return;
  remember(step(before));
  changed();
}
// Go to an undo or redo step; the server hears of it only when the map changed.
function restore(to) {
  const mapChanged = to.doc !== snapshot();
  S.doc = JSON.parse(to.doc);
  setBackground(to.bg);
  findAutoShapes();
  keepSelection();
  if (mapChanged) changed();
  else { drawOverlay(); drawPanels(); }
}
function undo() {
  if (!S.undo.length) return;
  S.redo.push(step());
  S.pending = null;
  restore(S.undo.pop());
}
function redo() {
  if (!S.redo.length) return;
  S.undo.push(step());
  restore(S.redo.pop());
}
function keepSelection() {
  if (S.sel && S.sel.kind === "stations") S.sel = asSelection(S.sel.ids);
  if (S.sel && S.sel.kind === "station" && !station(S.sel.id)) S.sel = null;
  if (S.sel && S.sel.kind === "line" && !line(S.sel.id)) S.sel = null;
}

// ---- selection ----------------------------------------------------------------------------
// One station is {kind: "station", id}; several (a box, Shift-click) {kind: "stations", ids}.
function selectedIds() {
  if (!S.sel) return [];
  if (S.sel.kind === "station") return [S.sel.id];
  return S.sel.kind === "stations" ? S.sel.ids : [];
}
function asSelection(ids) {
  const live = [...new Set(ids)].filter((id) => station(id));
  if (live.length > 1) return { kind: "stations", ids: live };
  return live.length ? { kind: "station", id: live[0] } : null;
}
function selectStations(ids) { select(asSelection(ids)); }
function toggleStation(id) {
  const ids = selectedIds();
  selectStations(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
}
// The stations inside a box dragged on the canvas (map units, either corner first).
function stationsIn(a, b) {
  const [x0, x1] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
  const [y0, y1] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
  return stations().filter((s) => s.x >= x0 && s.x <= x1 && s.y >= y0 && s.y <= y1).map((s) => s.id);
}

// The index of each stop's vertex in a line's shape (stops found in order), or null when
// a stop is not a vertex of it; `at(id)`: where the station is.
function shapeStops(l, at = station) {
  const out = [];
  let k = 0;
  for (const id of l.stops) {
    const s = at(id);
    if (!s) return null;
    while (k < l.shape.length && Math.hypot(l.shape[k][0] - s.x, l.shape[k][1] - s.y) > 1e-6) k++;
    if (k === l.shape.length) return null;
    out.push(k);
  }
  return out;
}

// Move stations by (dx, dy) from where they are in `src` (the map as a drag began). A group
// takes along the wagons of the lines that start in it, and the bends of a line's own shape
// between two of its stops (the studio's 45° shapes are redrawn by refreshShapes).
function moveStations(ids, dx, dy, src = S.doc) {
  const set = new Set(ids);
  const from = new Map((src.stations || []).map((st) => [st.id, { x: st.x, y: st.y }]));
  for (const id of set) {
    const s = station(id);
    const o = from.get(id);
    if (s && o) { s.x = round(o.x + dx); s.y = round(o.y + dy); }
  }
  if (set.size < 2) return;
  (src.lines || []).forEach((ol, n) => {
    const l = lines()[n];
    if (!l || l.id !== ol.id || !ol.stops || !ol.stops.length) return;
    const wagon = set.has(ol.stops[0]) && ol.depot;
    if (wagon) l.depot = { ...l.depot, x: round(ol.depot.x + dx), y: round(ol.depot.y + dy) };
    if (!ol.shape || S.autoShapes.has(l.id)) return;
    const at = shapeStops(ol, (id) => from.get(id));
    if (!at) return;
    const stops = ol.stops;
    const moves = (i) => {
      if (i < at[0]) return wagon;
      const j = at.findIndex((k) => k >= i);
      if (j >= 0 && at[j] === i) return set.has(stops[j]);
      if (j < 0) return set.has(stops[stops.length - 1]) && set.has(stops[0]);  // a loop's way back
      return set.has(stops[j - 1]) && set.has(stops[j]);
    };
    l.shape = ol.shape.map((pt, i) => (moves(i) ? [round(pt[0] + dx), round(pt[1] + dy)] : [...pt]));
  });
}

// ---- inserting a stop ---------------------------------------------------------------------
// The point of segment ab nearest p, and its distance.
function toSegment(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / len2)) : 0;
  const q = { x: a[0] + t * dx, y: a[1] + t * dy };
  return [Math.hypot(p.x - q.x, p.y - q.y), q];
}
// Each stretch of a line: its two stops and the points it is drawn through.
function stretches(l) {
  const stops = l.stops || [];
  if (stops.length < 2 || !stops.every((id) => station(id))) return [];
  const pairs = stops.slice(0, -1).map((a, i) => [a, stops[i + 1]]);
  if (l.loop && stops.length > 2) pairs.push([stops[stops.length - 1], stops[0]]);
  const at = l.shape ? shapeStops(l) : null;
  return pairs.map(([a, b], i) => {
    const pts = at ? l.shape.slice(at[i], (i + 1 < at.length ? at[i + 1] : l.shape.length - 1) + 1)
      : [[station(a).x, station(a).y], [station(b).x, station(b).y]];
    return { a, b, pts };
  });
}
// The stretch within reach of p, nearest first (`prefer`: the line whose stroke was hit).
function stretchAt(p, prefer) {
  const reach = Math.max(stationRadius(), 8 * unitsPerPixel());
  let best = null;
  for (const l of lines()) {
    for (const st of stretches(l)) {
      for (let k = 0; k + 1 < st.pts.length; k++) {
        const [d, q] = toSegment(p, st.pts[k], st.pts[k + 1]);
        const score = d - (l.id === prefer ? reach : 0);
        if (d <= reach && (!best || score < best.score)) best = { a: st.a, b: st.b, q, seg: [st.pts[k], st.pts[k + 1]], score };
      }
    }
  }
  return best;
}
// q moved along segment ab to the grid (in the segment's main direction); null if that
// leaves the segment.
function snapOnSegment(q, a, b) {
  const g = S.grid;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  let r;
  let t;
  if (Math.abs(dx) >= Math.abs(dy)) {
    const x = Math.round(q.x / g) * g;
    r = { x, y: a[1] + ((x - a[0]) * dy) / dx };
    t = (x - a[0]) / dx;
  } else {
    const y = Math.round(q.y / g) * g;
    r = { x: a[0] + ((y - a[1]) * dx) / dy, y };
    t = (y - a[1]) / dy;
  }
  return t > 1e-6 && t < 1 - 1e-6 ? { x: round(r.x), y: round(r.y) } : null;
}
// A new station on a stretch, made a stop of every line that runs that stretch (lines
// drawn side by side there would otherwise pass through it without stopping).
function insertStop(hit, free) {
  const q = (S.snap && !free && snapOnSegment(hit.q, ...hit.seg)) || { x: round(hit.q.x), y: round(hit.q.y) };
  let id;
  edit(() => {
    id = addStationAt(q);
    for (const l of lines()) {
      const n = l.stops.length;
      for (let i = 0; i < n; i++) {
        const j = i + 1 < n ? i + 1 : l.loop && n > 2 ? 0 : -1;
        if (j < 0) break;
        const [u, v] = [l.stops[i], l.stops[j]];
        if ((u === hit.a && v === hit.b) || (u === hit.b && v === hit.a)) { l.stops.splice(i + 1, 0, id); break; }
      }
    }
  });
  select({ kind: "station", id });
  status(`station ${id} inserted between ${hit.a} and ${hit.b}`);
}

// ---- station names ------------------------------------------------------------------------
const COMPASS = ["e", "se", "s", "sw", "w", "nw", "n", "ne"];
const COMPASS_WORDS = { n: "north", ne: "north-east", e: "east", se: "south-east", s: "south", sw: "south-west", w: "west", nw: "north-west" };
// The compass direction of (dx, dy) (y grows downward, as on the sheet).
function compass(dx, dy) {
  return COMPASS[(Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) + 8) % 8];
}
// The centre of a name on the sheet, in map units.
function labelCentre(text) {
  const b = text.getBBox();
  const { scale: k, offset: [ox, oy] } = S.layout;
  return { x: (b.x + b.width / 2 - ox) / k, y: (b.y + b.height / 2 - oy) / k };
}
// After a name was dragged: say so when the renderer found its spot taken.
function checkLabel() {
  const want = S.labelWanted;
  if (!want || !S.labels) return;
  S.labelWanted = null;
  const text = $(`#sheet-layer .label[data-station="${CSS.escape(want.id)}"]`);
  const name = station(want.id)?.name || want.id;
  if (!text) S.note = `no room for the name of ${name} on the sheet`;
  else if (text.dataset.at !== want.at) {
    S.note = `the ${COMPASS_WORDS[want.at]} of ${name} is taken (a line, a station or a name): its name is to the ${COMPASS_WORDS[text.dataset.at]}`;
  }
  if (S.note) status(S.note);
}

function changed() {
  if (S.heat) {
    // the heatmap belongs to the map as it was played; after an edit show the live sheet
    S.heat = false;
    const box = document.querySelector('[data-testid="toggle-heatmap"]');
    if (box) box.checked = false;
  }
  autosave();
  drawOverlay();
  drawPanels();
  if (S.playtest) drawPlaytest();
  scheduleSync();
}

// ---- server sync --------------------------------------------------------------------------
async function api(method, url, body) {
  const opts = { method, headers: { "X-Mapkit-Token": TOKEN } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  return { res, data };
}

function scheduleSync() {
  if (S.syncing) { S.needSync = true; return; }
  sync();
}

async function sync() {
  S.syncing = true;
  S.needSync = false;
  status("checking…");
  try {
    const { res, data } = await api("PUT", "/api/map", { revision: S.revision, map: S.doc });
    if (res.status === 409) {
      banner("This map was changed from another tab or window. Reload to continue from there.",
        [["Reload", () => location.reload()]]);
      S.bannerKind = "conflict";
      return;
    }
    if (!res.ok) { refused(res, data); return; }
    S.revision = data.revision;
    if (data.map) {
      // half characters (lone surrogates, say half a pasted emoji) became U+FFFD, as mapkit
      // reads them in a map file: the page shows the map as the server and a saved file have it
      S.doc = data.map;
      autosave();
      drawPanels();
      drawOverlay();
      banner(`${data.replaced} half character(s) (half of an emoji?) replaced by \ufffd, as mapkit reads map files.`, [["OK", () => banner(null)]]);
    }
    markDirty();
    if (!S.needSync) await Promise.all([loadDiagnostics(), loadSheet(), loadIntersections()]);
  } catch (err) {
    status(`server unreachable: ${err.message}`);
  } finally {
    S.syncing = false;
    if (S.needSync) sync();
    else status(S.note || `${stations().length} stations · ${lines().length} lines`);
    S.note = null;
  }
}

async function loadDiagnostics() {
  const { res, data } = await api("GET", `/api/diagnostics?paper=${S.paper}&draft=${S.draft ? 1 : 0}`);
  if (!res.ok || data.revision !== S.revision) return;
  S.diags = data.diagnostics;
  drawDiagnostics();
  drawOverlay();
}

async function loadIntersections() {
  const { res, data } = await api("GET", "/api/intersections");
  S.ix = {};
  if (res.ok) for (const s of data.stations) S.ix[s.id] = s.count;
}

async function loadSheet() {
  const url = S.heat
    ? `/api/heatmap.svg?paper=${S.paper}`
    : `/api/sheet.svg?paper=${S.paper}&labels=${S.labels ? 1 : 0}`;
  const res = await fetch(url, { headers: { "X-Mapkit-Token": TOKEN } });
  const layer = $("#sheet-layer");
  if (!res.ok) {
    const data = await res.json().catch(() => ({ error: `the sheet: error ${res.status}` }));
    if (!S.doc.stations.length) { layer.replaceChildren(); S.layout = null; }
    else status(data.error);
    drawOverlay();
    return;
  }
  const text = await res.text();
  if (!S.heat && res.headers.get("X-Mapkit-Revision") !== S.revision) return;
  if (stations().length < 2) {
    // one station is drawn at an arbitrary scale: wait for a second to show the sheet
    layer.replaceChildren();
    S.layout = null;
    S.sheetRevision = S.revision;
    drawOverlay();
    return;
  }
  const svg = pictureOnly(new DOMParser().parseFromString(text, "image/svg+xml"));
  if (!svg) { status("the sheet could not be read"); return; }
  S.layout = JSON.parse(res.headers.get("X-Mapkit-Layout"));
  const vb = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  svg.setAttribute("width", vb[2]);
  svg.setAttribute("height", vb[3]);
  svg.removeAttribute("id");
  const { scale: s, offset: [ox, oy] } = S.layout;
  layer.setAttribute("transform", `matrix(${1 / s} 0 0 ${1 / s} ${-ox / s} ${-oy / s})`);
  layer.replaceChildren(document.importNode(svg, true));
  S.sheetRevision = S.revision;
  checkLabel();
  if (!S.view || (S.autoFit && S.tool === "select" && !S.drag && !sheetVisible())) fit();
  drawOverlay();
}

// The server's SVG is built from escaped text; whatever it holds, only drawing elements
// reach the page (no script, no foreign content, no event handler, no outside link).
const NOT_DRAWING = new Set(["script", "foreignObject", "iframe", "object", "embed", "use", "image",
  "a", "animate", "set", "animateMotion", "animateTransform", "handler", "style", "link", "meta"]);
function pictureOnly(xml) {
  const root = xml.documentElement;
  if (!root || root.localName !== "svg" || xml.getElementsByTagName("parsererror").length) return null;
  if (!root.getAttribute("viewBox")) return null;
  for (const e of Array.from(root.querySelectorAll("*"))) {
    if (NOT_DRAWING.has(e.localName) || e.namespaceURI !== SVGNS) { e.remove(); continue; }
  }
  for (const e of [root, ...root.querySelectorAll("*")]) {
    for (const a of Array.from(e.attributes)) {
      const name = a.name.toLowerCase();
      if (name.startsWith("on") || name === "style" || (name.endsWith("href") && !a.value.startsWith("#"))) e.removeAttribute(a.name);
    }
  }
  return root;
}

// Whether the whole sheet is in view (the sheet grows and shrinks as the map does).
function sheetVisible() {
  const { scale: s, offset: [ox, oy], width, height } = S.layout;
  const v = S.view;
  const eps = 1e-6;
  return -ox / s >= v.x - eps && -oy / s >= v.y - eps
    && (width - ox) / s <= v.x + v.w + eps && (height - oy) / s <= v.y + v.h + eps;
}

// ---- view ---------------------------------------------------------------------------------
function fit() {
  S.autoFit = true;
  if (S.layout) {
    const { scale: s, offset: [ox, oy], width, height } = S.layout;
    setView({ x: -ox / s, y: -oy / s, w: width / s, h: height / s });
  } else {
    setView({ x: -1, y: -1, w: 20, h: 14 });
  }
}
function setView(v) {
  const stage = $("#stage").getBoundingClientRect();
  const aspect = stage.width / Math.max(stage.height, 1);
  if (v.w / v.h < aspect) { const w = v.h * aspect; v.x -= (w - v.w) / 2; v.w = w; }
  else { const h = v.w / aspect; v.y -= (h - v.h) / 2; v.h = h; }
  S.view = v;
  const c = $("#canvas");
  c.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  const r = $("#grid-rect");
  r.setAttribute("x", v.x); r.setAttribute("y", v.y);
  r.setAttribute("width", v.w); r.setAttribute("height", v.h);
}
function unitsPerPixel() {
  return S.view ? S.view.w / Math.max($("#canvas").getBoundingClientRect().width, 1) : 0.02;
}
function toMap(evt) {
  const c = $("#canvas");
  const pt = c.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(c.getScreenCTM().inverse());
  return { x: p.x, y: p.y };
}
function setGrid(step) {
  S.grid = step;
  const p = $("#grid");
  p.setAttribute("width", step); p.setAttribute("height", step);
  $("#grid-path").setAttribute("d", `M ${step} 0 L 0 0 0 ${step}`);
}

// ---- snapping -----------------------------------------------------------------------------
// Grid first; then the eight directions from each neighbour win when the point is near one
// (two such rays: their crossing). Returns the point and the guides to draw.
function snap(p, anchors, free) {
  if (!S.snap || free) return { p: { x: round(p.x), y: round(p.y) }, guides: [] };
  const g = S.grid;
  const grid = { x: round(Math.round(p.x / g) * g), y: round(Math.round(p.y / g) * g) };
  const tol = Math.max(0.3 * g, 10 * unitsPerPixel());
  const rays = [];
  for (const a of anchors) {
    const dx = p.x - a.x;
    const dy = p.y - a.y;
    if (Math.hypot(dx, dy) < 1e-9) continue;
    const k = Math.round(Math.atan2(dy, dx) / (Math.PI / 4)) * (Math.PI / 4);
    const ux = Math.round(Math.cos(k) * 1e9) / 1e9;
    const uy = Math.round(Math.sin(k) * 1e9) / 1e9;
    const t = dx * ux + dy * uy;
    const off = Math.abs(dx * uy - dy * ux);
    if (t > 0 && off < tol) rays.push({ a, ux, uy, off });
  }
  rays.sort((r1, r2) => r1.off - r2.off);
  if (rays.length >= 2) {
    const [r1, r2] = rays;
    const det = r1.ux * r2.uy - r1.uy * r2.ux;
    if (Math.abs(det) > 1e-6) {
      const t = ((r2.a.x - r1.a.x) * r2.uy - (r2.a.y - r1.a.y) * r2.ux) / det;
      const x = { x: round(r1.a.x + r1.ux * t), y: round(r1.a.y + r1.uy * t) };
      if (Math.hypot(x.x - p.x, x.y - p.y) < 2 * tol) return { p: x, guides: [[r1.a, x], [r2.a, x]] };
    }
  }
  if (rays.length) {
    const r = rays[0];
    let q;
    if (Math.abs(r.ux) > 0.1) {
      const x = Math.round((p.x - r.a.x) / g) * g;
      q = { x: round(r.a.x + x), y: round(r.a.y + (x * r.uy) / r.ux) };
    } else {
      const y = Math.round((p.y - r.a.y) / g) * g;
      q = { x: round(r.a.x), y: round(r.a.y + y) };
    }
    return { p: q, guides: [[r.a, q]] };
  }
  return { p: grid, guides: [] };
}

// ---- overlay (map units) ------------------------------------------------------------------
function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The printed circle's size, but never so small it is hard to hit nor so large it hides
// its neighbours (a map of one or two stations prints them huge).
function stationRadius() {
  const px = unitsPerPixel();
  const printed = S.layout ? (S.layout.station_r * 1.2) / S.layout.scale : 9 * px;
  return Math.min(Math.max(printed, 7 * px), 16 * px);
}

function drawOverlay() {
  const g = $("#overlay");
  g.replaceChildren();
  const r = stationRadius();
  const problems = new Set();
  for (const d of S.diags) {
    const m = /^\/stations\/(\d+)/.exec(d.pointer);
    if (m && stations()[+m[1]] && d.severity !== "info") problems.add(stations()[+m[1]].id);
  }
  const sel = S.sel;
  if (sel && sel.kind === "line" && line(sel.id)) {
    const l = line(sel.id);
    for (const stops of l.shape ? [l.stops] : paths(l)) {
      const pts = (l.shape || [[l.depot?.x, l.depot?.y], ...stops.map((id) => [station(id)?.x, station(id)?.y])])
        .filter((p) => p[0] !== undefined);
      if (l.loop && !l.shape && l.stops.length > 2) pts.push([station(l.stops[0]).x, station(l.stops[0]).y]);
      el("polyline", { class: "line-sel", points: pts.map((p) => p.join(",")).join(" "), "stroke-width": r * 1.6 }, g);
    }
  }
  for (const l of lines()) {
    if (!l.depot) continue;
    el("rect", {
      class: `depot${sel && sel.kind === "line" && sel.id === l.id ? " selected" : ""}`,
      x: l.depot.x - r * 1.2, y: l.depot.y - r * 0.8, width: r * 2.4, height: r * 1.6, rx: r * 0.2,
      "data-depot": l.id, "stroke-width": r * 0.15,
    }, g);
  }
  el("line", { id: "rubber", class: "rubber", "stroke-width": r * 0.3 }, g);
  drawRubber();
  for (const [a, b] of S.guides) {
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    el("line", { class: "guide", x1: a.x - dx, y1: a.y - dy, x2: b.x + dx, y2: b.y + dy, "stroke-width": r * 0.15 }, g);
  }
  const fresh = S.sheetRevision !== S.revision || !S.layout;
  const pendingIds = new Set(S.pending ? S.pending.ids() : []);
  const chosen = new Set(selectedIds());
  for (const s of stations()) {
    const cls = ["handle"];
    if (fresh || !S.layout) cls.push("fresh");
    if (problems.has(s.id)) cls.push("problem");
    if (pendingIds.has(s.id)) cls.push("pending");
    if (chosen.has(s.id)) cls.push("selected");
    el("circle", { class: cls.join(" "), cx: s.x, cy: s.y, r, "data-handle": s.id, "stroke-width": r * 0.22 }, g);
  }
  if (S.box) {
    const [a, b] = S.box;
    el("rect", { class: "marquee", "data-testid": "marquee", x: Math.min(a.x, b.x), y: Math.min(a.y, b.y),
      width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y), "stroke-width": r * 0.12 }, g);
  }
  hint();
}

// The dashed line from the last stop to the pointer: updated in place on every move, so
// the handles under the pointer are not redrawn while the user aims at them.
function drawRubber() {
  const rub = $("#rubber");
  if (!rub) return;
  const from = S.pending && S.rubber ? station(S.pending.last()) : null;
  if (!from) { rub.setAttribute("visibility", "hidden"); return; }
  rub.setAttribute("visibility", "visible");
  rub.setAttribute("x1", from.x); rub.setAttribute("y1", from.y);
  rub.setAttribute("x2", S.rubber.x); rub.setAttribute("y2", S.rubber.y);
}

function hint() {
  const h = $("#hint");
  h.classList.toggle("empty", !stations().length && S.tool === "select" && !S.bgAdjust);
  if (S.bgAdjust && S.bg) h.textContent = "Background: drag to move the image, wheel to scale it; untick “move and scale” to draw again.";
  else if (S.tool === "station") h.textContent = "Station: click to place a station, or on a line between two stops to insert one there (Shift: off the grid). Esc: back to Select.";
  else if (S.tool === "line") {
    const pend = S.pending;
    const l = pend && pend.lineId ? line(pend.lineId) : null;
    if (pend && pend.mode === "branch" && l && !pend.fork) h.textContent = `Branch of line ${l.id}: click the stop where it forks. Esc: no branch.`;
    else if (pend && pend.mode === "branch" && l) {
      const b = pend.b ?? Math.max((l.branches || []).length, 1);
      h.textContent = `Branch ${branchName(l, b)}: click its ${pend.b === null ? "first" : "next"} stop, or empty space for a new station. Enter/Esc ends the branch.`;
    } else {
      h.textContent = pend
        ? `Line ${pend.lineId || "(new)"}: click the next station, or empty space for a new one. Enter/Esc ends the line.`
        : "Line: click the first station (or the end of the selected line to extend it, its fork for another branch).";
    }
  } else if (!stations().length) h.textContent = "An empty map: press S and click to place stations, then L to draw lines through them.";
  else if (selectedIds().length > 1) h.textContent = `${selectedIds().length} stations: drag one to move them all, arrows nudge, Del deletes; Shift-click adds or removes one.`;
  else h.textContent = "Select: click or drag a station, line, wagon or name · drag empty space: a box (Shift: add) · Space+drag: pan · wheel: zoom";
}

// ---- panels -------------------------------------------------------------------------------
function drawPanels() {
  markDirty();
  q("cmd-undo").disabled = !S.undo.length;
  q("cmd-redo").disabled = !S.redo.length;
  q("cmd-delete").disabled = !S.sel || S.sel.kind === "map";
  q("cmd-save").disabled = S.readonly;
  for (const b of $$("[data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === S.tool));
  $("#canvas").setAttribute("class", `tool-${S.tool}`);
  drawInspector();
  drawLineList();
}

// Every map-derived string reaches the page through h(): as a text node or an attribute
// value, never as markup (tests/test_studio_page.py fails on innerHTML and its kin).
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "style") Object.assign(e.style, v);
    else if (k === "onclick") e.onclick = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}
function field(label, testid, value, attrs = {}) {
  const type = attrs.type || "text";
  const input = h("input", { ...attrs, type, "data-testid": testid });
  if (type === "checkbox") input.checked = !!value;
  else input.value = value ?? "";
  return [h("label", {}, label), input];
}

function drawInspector() {
  const box = q("inspector");
  const sel = S.sel;
  if (sel && sel.kind === "stations") {
    const names = sel.ids.map((id) => station(id)?.name || id);
    box.replaceChildren(h("h2", {}, `${sel.ids.length} stations`),
      h("p", { "data-testid": "selection-names" }, names.slice(0, 12).join(", ") + (names.length > 12 ? `, … (${names.length - 12} more)` : "")),
      h("p", {}, h("button", { "data-testid": "selection-tidy", onclick: tidyLayout, title: "Lay out these stations on the eight directions, every other one pinned (T)" }, "Tidy these")),
      h("p", { class: "muted" }, "Drag one of them to move them all; arrows nudge them; Del deletes them; "
        + "Shift-click adds or takes away one, a box with Shift adds more."));
    return;
  }
  if (sel && sel.kind === "station" && station(sel.id)) {
    const s = station(sel.id);
    const on = linesAt(s.id);
    const labelAt = h("select", { "data-testid": "station-label", title: "Where the name is printed (names on): drag it on the sheet, or choose" },
      h("option", { value: "" }, "where it fits"), ...COMPASS.map((c) => h("option", { value: c }, COMPASS_WORDS[c])));
    labelAt.value = s.label || "";
    box.replaceChildren(h("h2", {}, "Station"), h("div", { class: "form" },
      field("id", "station-id", s.id),
      field("name", "station-name", s.name, { placeholder: "no name yet" }),
      field("x", "station-x", s.x, { type: "number", step: "any" }),
      field("y", "station-y", s.y, { type: "number", step: "any" }),
      field("special", "station-special", s.special, { type: "checkbox" }),
      h("label", {}, "name at"), labelAt,
      h("label", {}, "lines"), h("span", {}, on.length ? on.join(", ") : h("span", { class: "needs" }, "none yet")),
      h("label", {}, "interchange"), h("span", {}, S.ix[s.id] ?? on.length)));
    bind("station-id", (v) => renameStation(s.id, v));
    bind("station-name", (v) => edit(() => { if (v) s.name = v; else delete s.name; }));
    bind("station-x", (v) => edit(() => { if (v !== "" && isFinite(+v)) s.x = +v; }));
    bind("station-y", (v) => edit(() => { if (v !== "" && isFinite(+v)) s.y = +v; }));
    bind("station-special", (v, e) => edit(() => { if (e.target.checked) s.special = true; else delete s.special; }));
    bind("station-label", (v) => {
      S.labelWanted = v ? { id: s.id, at: v } : null;
      edit(() => { if (v) s.label = v; else delete s.label; });
    });
    return;
  }
  if (sel && sel.kind === "line" && line(sel.id)) {
    drawLineInspector(box, line(sel.id));
    return;
  }
  const d = S.doc;
  box.replaceChildren(h("h2", {}, "Map"), h("div", { class: "form" },
    field("name", "map-name", d.name),
    field("id", "map-id", d.id),
    field("subtitle", "map-subtitle", d.sheet?.subtitle),
    field("sheet colour", "map-color", d.sheet?.color || "#ffffff", { type: "color" }),
    field("author", "map-author", d.author),
    h("label", {}, "rules"), rulesetChoice(d),
    field("all lines 1st", "map-bonus-first", d.all_lines_bonus?.first, { type: "number", min: 0, placeholder: "no bonus" }),
    field("all lines later", "map-bonus-others", d.all_lines_bonus?.others, { type: "number", min: 0, placeholder: "no bonus" }),
    h("label", {}, "all lines when"), bonusCondition(d)),
  h("p", { class: "muted" }, `${stations().length} stations, ${lines().length} lines, `
    + `${lines().reduce((n, l) => n + (l.windows || 0), 0)} windows. Click a station or line to edit it.`));
  bind("map-name", (v) => edit(() => { d.name = v; }));
  bind("map-id", (v) => edit(() => { d.id = v; }));
  bind("map-subtitle", (v) => edit(() => { d.sheet = d.sheet || {}; if (v) d.sheet.subtitle = v; else delete d.sheet.subtitle; if (!Object.keys(d.sheet).length) delete d.sheet; }));
  bind("map-color", (v) => edit(() => { d.sheet = d.sheet || {}; d.sheet.color = v; }));
  bind("map-author", (v) => edit(() => { if (v) d.author = v; else delete d.author; }));
  bind("map-ruleset", (v) => edit(() => { if (v === RULES.default) delete d.ruleset; else if (v !== "custom") d.ruleset = v; }));
  const bonus = (key) => (v) => edit(() => {
    const b = { ...(d.all_lines_bonus || {}) };
    if (v === "") delete b[key]; else b[key] = Number(v);
    if (b.first === undefined && b.others === undefined) delete d.all_lines_bonus;
    else d.all_lines_bonus = { first: b.first ?? b.others, others: b.others ?? 0, ...(b.condition ? { condition: b.condition } : {}) };
  });
  bind("map-bonus-first", bonus("first"));
  bind("map-bonus-others", bonus("others"));
  bind("map-bonus-condition", (v) => edit(() => { if (d.all_lines_bonus) d.all_lines_bonus.condition = v; }));
}

// The selected line's form: its fields, its stops (a branching line's trunk), and per branch
// its points, its stops and its commands.
function drawLineInspector(box, l) {
  const forks = !!(l.branches || []).length;
  const name = (id) => station(id)?.name || id;
  // a branching line's trunk keeps two stops: the fork and one before it
  const stopItems = (list, b) => list.map((id, i) => h("li", {},
    h("span", {}, `${i + 1}. ${name(id)}`),
    h("button", { "data-testid": "stop-up", "data-i": i, "data-b": b, title: "Earlier" }, "↑"),
    h("button", { "data-testid": "stop-down", "data-i": i, "data-b": b, title: "Later" }, "↓"),
    h("button", { "data-testid": "stop-remove", "data-i": i, "data-b": b, title: "Remove from the line",
      disabled: b === undefined && forks && l.stops.length <= 2 }, "×")));
  const shape = h("select", { "data-testid": "line-shape", disabled: forks, title: forks ? "A branching line is drawn through its stops" : null },
    h("option", { value: "straight" }, "straight"), h("option", { value: "octilinear" }, "45° bends"));
  shape.value = l.shape ? "octilinear" : "straight";
  const why = noBranch(l);
  const fixed = forks ? { disabled: true, title: "Not with branches (REF013)" } : {};
  const branchParts = (l.branches || []).map((br, b) => [
    h("h3", { class: "wide branch" }, `Branch ${branchName(l, b)}`, " ",
      h("span", { class: "muted" }, `from ${name(l.stops[l.stops.length - 1])}, ${br.stops.length} stop${br.stops.length === 1 ? "" : "s"}`)),
    field("points 1st", "branch-first", br.points?.first, { type: "number", min: 0, "data-b": b,
      placeholder: l.points ? `${l.points.first}, the line's` : "the line's" }),
    field("points later", "branch-others", br.points?.others, { type: "number", min: 0, "data-b": b,
      placeholder: l.points ? `${l.points.others}, the line's` : "the line's" }),
    h("label", {}, "stops"), h("span", {},
      h("button", { "data-testid": "branch-extend", "data-b": b, title: "Continue drawing from this branch's end (L)" }, "extend"), " ",
      h("button", { "data-testid": "branch-remove", "data-b": b, title: "Take this branch's stops off the line (a last branch left continues the trunk)" }, "remove branch")),
    h("ul", { class: "stops wide" }, stopItems(br.stops, b)),
  ]);
  const scoring = h("select", { "data-testid": "line-branch-scoring", title: "A line with several branches run pays its best branch, or each (rules-notes 23)" },
    ...RULES.branch_scoring.map((v) => h("option", { value: v }, v === "best" ? "best branch" : `${v} branch`)));
  scoring.value = l.branch_scoring || RULES.branch_scoring[0];
  box.replaceChildren(h("h2", {}, `Line ${l.id}`), h("div", { class: "form" },
    field("letter", "line-id", l.id),
    field("name", "line-name", l.name),
    field("colour", "line-color", l.color, { type: "color" }),
    field("windows", "line-windows", l.windows, { type: "number", min: 1, max: 8, placeholder: "not set" }),
    field("points 1st", "line-first", l.points?.first, { type: "number", min: 0, placeholder: "not set" }),
    field("points later", "line-others", l.points?.others, { type: "number", min: 0, placeholder: "not set" }),
    field("loop", "line-loop", l.loop, { type: "checkbox", ...fixed }),
    field("both ends", "line-both-ends", l.both_ends, { type: "checkbox", ...fixed }),
    h("label", {}, "shape"), shape,
    forks ? [h("label", {}, "pays"), scoring] : null,
    h("label", {}, forks ? "trunk" : "stops"), h("span", {},
      h("button", { "data-testid": "line-reverse", disabled: forks, title: forks ? "A branching line runs from its wagon to its branches' ends" : "Reverse the stops" }, "reverse"), " ",
      forks ? null : [h("button", { "data-testid": "line-extend" }, "extend (L)"), " "],
      h("button", { "data-testid": "line-branch", disabled: !!why, title: why || "Draw a branch: click the stop where it leaves the line, then its stops" }, "add branch")),
    h("ul", { class: "stops wide" }, stopItems(l.stops, undefined)),
    ...branchParts.flat()),
  h("p", { class: "muted" }, "Drag the dashed box (the wagon) to move the depot."));
  bind("line-id", (v) => renameLine(l.id, v.toUpperCase()));
  bind("line-name", (v) => edit(() => { if (v) l.name = v; else delete l.name; }));
  bind("line-color", (v) => edit(() => { l.color = v; }));
  bind("line-windows", (v) => edit(() => { if (v === "") delete l.windows; else l.windows = Math.max(1, Math.min(8, Math.round(+v))); }));
  const pts = (key) => (v) => edit(() => {
    const p = l.points || { first: 0, others: 0 };
    if (v === "") { delete l.points; return; }
    p[key] = Math.max(0, Math.round(+v));
    l.points = p;
  });
  bind("line-first", pts("first"));
  bind("line-others", pts("others"));
  bind("line-loop", (v, e) => edit(() => { if (e.target.checked) l.loop = true; else delete l.loop; }));
  bind("line-both-ends", (v, e) => edit(() => { if (e.target.checked) l.both_ends = true; else delete l.both_ends; }));
  bind("line-shape", (v) => edit(() => {
    if (v === "octilinear") { S.autoShapes.add(l.id); l.shape = octilinearShape(l); } else { S.autoShapes.delete(l.id); delete l.shape; }
  }));
  if (forks) bind("line-branch-scoring", (v) => edit(() => { if (v === RULES.branch_scoring[0]) delete l.branch_scoring; else l.branch_scoring = v; }));
  q("line-reverse").onclick = () => edit(() => { l.stops.reverse(); autoDepot(l); });
  if (!forks) q("line-extend").onclick = () => { setTool("line"); S.pending = pendingFor(l.id, "append"); drawOverlay(); };
  q("line-branch").onclick = () => startBranch(l);
  for (const f of box.querySelectorAll('[data-testid="branch-first"], [data-testid="branch-others"]')) {
    f.addEventListener("keydown", (evt) => evt.stopPropagation());
    f.addEventListener("change", () => edit(() => {
      // empty: the branch pays the line's points again
      const br = l.branches[+f.dataset.b];
      if (f.value === "") { delete br.points; return; }
      const p = { ...(br.points || l.points || { first: 0, others: 0 }) };
      p[f.dataset.testid === "branch-first" ? "first" : "others"] = Math.max(0, Math.round(+f.value));
      br.points = p;
    }));
  }
  for (const btn of box.querySelectorAll('[data-testid="branch-extend"]')) {
    btn.onclick = () => { setTool("line"); S.pending = pendingFor(l.id, "branch", +btn.dataset.b); drawOverlay(); };
  }
  for (const btn of box.querySelectorAll('[data-testid="branch-remove"]')) {
    btn.onclick = () => { S.pending = null; edit(() => { l.branches.splice(+btn.dataset.b, 1); foldBranches(l); }); };
  }
  for (const b of box.querySelectorAll("[data-i]")) {
    b.onclick = () => {
      const i = +b.dataset.i;
      const t = b.dataset.testid;
      const first = l.stops[0];
      edit(() => {
        const list = b.dataset.b === undefined ? l.stops : l.branches[+b.dataset.b].stops;
        if (t === "stop-up" && i > 0) [list[i - 1], list[i]] = [list[i], list[i - 1]];
        if (t === "stop-down" && i < list.length - 1) [list[i + 1], list[i]] = [list[i], list[i + 1]];
        if (t === "stop-remove") {
          list.splice(i, 1);
          foldBranches(l);
          if (l.stops.length < 2) { S.doc.lines = lines().filter((x) => x !== l); S.sel = null; }
        }
        if (l.stops.length >= 2 && l.stops[0] !== first) autoDepot(l);
      });
    };
  }
}

function rulesetChoice(d) {
  // the published rulesets, from the server (mapkit/rulesets.py); a map's own object: "custom"
  const sel = h("select", { "data-testid": "map-ruleset", title: "The edition the map is played under (mapkit rules --rulesets)" },
    ...RULES.rulesets.map((r) => h("option", { value: r.id }, r.name)));
  if (d.ruleset && typeof d.ruleset === "object") sel.append(h("option", { value: "custom" }, "custom (in the file)"));
  sel.value = d.ruleset === undefined ? RULES.default : (typeof d.ruleset === "object" ? "custom" : d.ruleset);
  return sel;
}

function bonusCondition(d) {
  const sel = h("select", { "data-testid": "map-bonus-condition", title: "When a player has run every line" },
    ...RULES.conditions.map((c) => h("option", { value: c }, c.replaceAll("_", " "))));
  sel.value = d.all_lines_bonus?.condition || RULES.conditions[0];
  sel.disabled = !d.all_lines_bonus;
  return sel;
}

function bind(testid, fn) {
  const e = q(testid);
  e.addEventListener("change", (evt) => fn(e.value, evt));
  e.addEventListener("keydown", (evt) => evt.stopPropagation());
}

function renameStation(old, id) {
  id = id.trim();
  if (!id || id === old) return;
  if (station(id)) { status(`station id '${id}' is taken`); drawInspector(); return; }
  edit(() => {
    station(old).id = id;
    for (const l of lines()) {
      l.stops = l.stops.map((s) => (s === old ? id : s));
      for (const b of l.branches || []) b.stops = b.stops.map((s) => (s === old ? id : s));
    }
  });
  S.sel = { kind: "station", id };
  drawPanels();
}
function renameLine(old, id) {
  id = id.trim();
  if (!id || id === old) return;
  if (line(id)) { status(`line '${id}' exists`); drawInspector(); return; }
  edit(() => { line(old).id = id; });
  if (S.autoShapes.delete(old)) S.autoShapes.add(id);
  S.sel = { kind: "line", id };
  drawPanels();
}

// The order of the lines is the order of the scoring panel's rows.
function moveLine(id, by) {
  edit(() => {
    const ls = lines();
    const i = ls.findIndex((l) => l.id === id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= ls.length) return;
    [ls[i], ls[j]] = [ls[j], ls[i]];
  });
}

function drawLineList() {
  const ul = q("line-list");
  const all = lines();
  const rows = all.map((l, i) => {
    const needs = [l.windows ? "" : "windows", l.points ? "" : "points"].filter(Boolean);
    const selected = S.sel && S.sel.kind === "line" && S.sel.id === l.id ? "selected" : null;
    const li = h("li", { "data-testid": "line-item", "data-line-item": l.id, class: selected },
      h("span", { class: "swatch", style: { background: l.color } }), h("b", {}, l.id),
      l.name ? h("span", { class: "line-name" }, l.name) : null,
      h("span", { class: "facts" },
        `${allStops(l).length} stops${l.loop ? ", loop" : ""}${l.branches ? `, ${l.branches.length} branches` : ""} · `,
        h("span", { class: needs.length ? "needs" : "muted" },
          needs.length ? `set ${needs.join(" and ")}` : `${l.windows} windows · ${l.points.first}/${l.points.others}`)),
      h("span", { class: "order" },
        h("button", { "data-testid": "line-up", "data-line": l.id, title: "Up in the scoring panel", disabled: i === 0,
          onclick: (e) => { e.stopPropagation(); moveLine(l.id, -1); } }, "↑"),
        h("button", { "data-testid": "line-down", "data-line": l.id, title: "Down in the scoring panel", disabled: i === all.length - 1,
          onclick: (e) => { e.stopPropagation(); moveLine(l.id, 1); } }, "↓")));
    li.onclick = () => select({ kind: "line", id: l.id });
    return li;
  });
  ul.replaceChildren(...(rows.length ? rows : [h("li", { class: "muted" }, "No lines yet.")]));
}

const SEVERITY = { error: 0, warning: 1, info: 2 };
function drawDiagnostics() {
  const ul = q("diagnostics");
  const list = [...S.diags].sort((a, b) => SEVERITY[a.severity] - SEVERITY[b.severity]);
  const n = (sev) => S.diags.filter((d) => d.severity === sev).length;
  q("diagnostics-count").textContent = S.diags.length
    ? `${n("error")} errors · ${n("warning")} warnings · ${n("info")} notes` : "none";
  ul.replaceChildren();
  for (const d of list) {
    const li = document.createElement("li");
    li.dataset.testid = "diagnostic";
    li.dataset.code = d.code;
    li.dataset.pointer = d.pointer;
    li.dataset.severity = d.severity;
    li.title = d.hint || "";
    li.append(h("code", {}, d.code), named(d.message));
    li.onclick = () => selectPointer(d.pointer);
    ul.appendChild(li);
  }
  if (!list.length) ul.replaceChildren(h("li", { class: "muted" }, `No problems${S.draft ? " (draft check)" : ""}.`));
}

// A diagnostic names stations and lines by id ('s17'); the list adds their names.
function named(message) {
  return message.replace(/(\b(?:lines?|stations?|stops?)?\s*)'([^']+)'/g, (all, before, id) => {
    const asLine = /^lines?\s/.test(before);
    const item = asLine ? line(id) || station(id) : station(id) || line(id);
    return item && item.name && item.name !== id ? `${before}'${id}' (${item.name})` : all;
  });
}

function selectPointer(pointer) {
  const m = /^\/(stations|lines)\/(\d+)/.exec(pointer);
  if (!m) { select(null); return; }
  const item = (m[1] === "stations" ? stations() : lines())[+m[2]];
  if (!item) return;
  select({ kind: m[1] === "stations" ? "station" : "line", id: item.id });
  const mark = $("#overlay .selected, #overlay .line-sel");
  if (mark) mark.classList.add("flash");
}

function select(sel) {
  S.sel = sel;
  drawOverlay();
  drawPanels();
}

// ---- commands -----------------------------------------------------------------------------
function setTool(tool) {
  if (S.pending && tool !== "line") S.pending = null;
  S.tool = tool;
  S.rubber = null;
  drawOverlay();
  drawPanels();
}

function deleteSelection() {
  const sel = S.sel;
  if (!sel) return;
  if (sel.kind === "station" || sel.kind === "stations") {
    const gone = new Set(selectedIds());
    edit((d) => {
      d.stations = stations().filter((s) => !gone.has(s.id));
      const dropped = [];
      for (const l of lines()) {
        const first = l.stops[0];
        l.stops = l.stops.filter((s) => !gone.has(s));
        for (const b of l.branches || []) b.stops = b.stops.filter((s) => !gone.has(s));
        foldBranches(l);  // a branch with no stop left is gone; a last one continues the trunk
        if (l.stops.length >= 2 && l.stops[0] !== first) autoDepot(l);
      }
      d.lines = lines().filter((l) => {
        if (l.stops.length >= 2) return true;
        dropped.push(l.id);
        return false;
      });
      if (dropped.length) status(`line ${dropped.join(", ")} had fewer than 2 stops left and was removed`);
    });
  } else if (sel.kind === "line") {
    edit((d) => { d.lines = lines().filter((l) => l.id !== sel.id); });
  }
  S.sel = null;
  S.pending = null;
  drawPanels();
  drawOverlay();
}

async function save(target, overwrite = false) {
  const body = { revision: S.revision, overwrite };
  if (target) body.path = target;
  await waitSynced();
  const { res, data } = await api("POST", "/api/save", body);
  if (res.ok) {
    S.path = data.path;
    S.readonly = data.readonly;
    S.savedText = snapshot();
    localStorage.removeItem(storageKey());
    showFile();
    drawPanels();
    status(`saved ${data.path}`);
    banner(null);
    return;
  }
  if (res.status === 409 && data.conflict) {
    banner(`${data.error}.`, [["Overwrite", () => save(target, true)], ["Cancel", () => banner(null)]]);
  } else {
    banner(data.error || `save failed (${res.status})`, [["OK", () => banner(null)]]);
  }
  S.bannerKind = "save";
}
function saveAs() {
  const name = prompt("Save as (a .json file name; relative to where mapkit studio was started):",
    S.readonly ? `my-${S.doc.id || "city"}.json` : S.path);
  if (name) save(name.trim());
}
async function waitSynced() {
  for (let i = 0; i < 100 && (S.syncing || S.needSync); i++) await new Promise((r) => setTimeout(r, 20));
}

// ---- drawing gestures ---------------------------------------------------------------------
// What the Line tool is drawing: a new line, a line's end ("append", "prepend"), or a
// branch ("branch": `fork` the stop it leaves the line at, null until clicked; `b` the
// branch's index, null until its first stop is placed).
function pendingFor(lineId, mode, b = null) {
  const l = lineId ? line(lineId) : null;
  const fork = mode === "branch" && l && (l.branches || []).length ? l.stops[l.stops.length - 1] : null;
  return {
    lineId, mode, first: null, fork, b,
    ids() {
      const at = this.lineId ? line(this.lineId) : null;
      if (!at) return this.first ? [this.first] : [];
      if (this.mode !== "branch") return at.stops;
      if (this.b !== null) return paths(at)[this.b] || [];
      return this.fork ? [this.fork] : [];
    },
    last() {
      const ids = this.ids();
      return this.mode === "prepend" ? ids[0] : ids[ids.length - 1];
    },
  };
}

// Start drawing a branch of line l (the inspector's "Add branch", or the Line tool on its fork).
function startBranch(l) {
  const why = noBranch(l);
  if (why) { status(`line ${l.id}: ${why}`); return; }
  setTool("line");
  S.sel = { kind: "line", id: l.id };
  S.pending = pendingFor(l.id, "branch");
  drawOverlay();
  drawPanels();
}

// A click of the Line tool while drawing a branch: first the fork (a stop of the line with
// a stop before it and one after it), then the branch's stops, each click one undo step.
function branchClick(pend, stationId, p, free) {
  const l = line(pend.lineId);
  if (!l) { S.pending = null; drawOverlay(); return; }
  const name = (id) => station(id)?.name || id;
  if (!pend.fork) {
    const i = stationId ? l.stops.indexOf(stationId) : -1;
    if (i < 0) status(`click a stop of line ${l.id}: the branch leaves the line there`);
    else if (i === 0) status(`the fork needs a stop of line ${l.id} before it: click a later stop`);
    else if (i === l.stops.length - 1) status(`line ${l.id} ends at ${name(stationId)}: extend it, or fork at a stop before its end`);
    else { pend.fork = stationId; status(`branch ${branchName(l, 1)} from ${name(stationId)}: click its stops`); }
    drawOverlay();
    return;
  }
  if (stationId && allStops(l).includes(stationId)) {
    status(`${name(stationId)} is on line ${l.id} already: a branch never comes back to its line`);
    return;
  }
  edit(() => {
    const id = stationId || addStationAt(snap(p, [station(pend.last())].filter(Boolean), free).p);
    if (pend.b !== null) { l.branches[pend.b].stops.push(id); return; }
    if (!l.branches) {
      // the line from the fork on becomes its first branch, with the line's points
      const k = l.stops.indexOf(pend.fork);
      l.branches = [{ stops: l.stops.splice(k + 1) }];
      if (l.shape) {
        delete l.shape;
        S.autoShapes.delete(l.id);
        status(`line ${l.id} is drawn straight through its stops now: a branching line has no shape`);
      }
    }
    l.branches.push({ stops: [id] });
    pend.b = l.branches.length - 1;
  });
  drawOverlay();
  drawPanels();
}

function addStationAt(p) {
  const id = freeStationId();
  stations().push({ id, x: p.x, y: p.y });
  return id;
}

// A click of the Line tool on a station (or on empty space: a new station there).
function lineClick(stationId, p, free) {
  if (S.pending && S.pending.mode === "branch") { branchClick(S.pending, stationId, p, free); return; }
  if (!S.pending) {
    const sel = S.sel && S.sel.kind === "line" ? line(S.sel.id) : null;
    const ends = sel && sel.branches ? sel.branches.map((b) => b.stops[b.stops.length - 1]) : [];
    if (sel && stationId && ends.includes(stationId)) { S.pending = pendingFor(sel.id, "branch", ends.indexOf(stationId)); drawOverlay(); return; }
    if (sel && sel.branches && stationId === sel.stops[sel.stops.length - 1]) { startBranch(sel); return; }
    if (sel && stationId && stationId === sel.stops[sel.stops.length - 1]) { S.pending = pendingFor(sel.id, "append"); drawOverlay(); return; }
    if (sel && stationId && stationId === sel.stops[0]) { S.pending = pendingFor(sel.id, "prepend"); drawOverlay(); return; }
    S.pending = pendingFor(null, "append");
  }
  const pend = S.pending;
  edit(() => {
    let id = stationId;
    if (!id) {
      const last = station(pend.last());
      id = addStationAt(snap(p, last ? [last] : [], free).p);
    }
    if (!pend.lineId) {
      if (!pend.first) { pend.first = id; return; }
      if (id === pend.first) return;
      const l = { id: freeLineId(), color: freeColour(), depot: { x: 0, y: 0 }, stops: [pend.first, id] };
      lines().push(l);
      autoDepot(l);
      pend.lineId = l.id;
      S.sel = { kind: "line", id: l.id };
      return;
    }
    const l = line(pend.lineId);
    if (!l) return;
    if (l.stops.includes(id)) {
      const end = pend.mode === "prepend" ? l.stops[l.stops.length - 1] : l.stops[0];
      if (id === end && l.stops.length >= 3) { l.loop = true; S.pending = null; }
      return;
    }
    if (pend.mode === "prepend") { l.stops.unshift(id); autoDepot(l); } else l.stops.push(id);
  });
  drawOverlay();
  drawPanels();
}

function target(evt) {
  const t = evt.target.closest("[data-handle],[data-depot],[data-station],[data-line]");
  if (!t) return {};
  if (t.dataset.handle) return { station: t.dataset.handle };
  if (t.dataset.depot) return { depot: t.dataset.depot };
  if (t.dataset.station) return { station: t.dataset.station };
  const wagon = t.closest(".wagon, .window");
  return wagon ? { depot: t.dataset.line } : { line: t.dataset.line };
}

// The station within a few pixels of p: a click just beside a station means that station,
// not a new one on top of it.
function nearStation(p) {
  const reach = stationRadius() + 6 * unitsPerPixel();
  let best = null;
  let bestD = reach;
  for (const st of stations()) {
    const d = Math.hypot(st.x - p.x, st.y - p.y);
    if (d < bestD) { best = st.id; bestD = d; }
  }
  return best;
}

function onPointerDown(evt) {
  if (evt.button === 1 || (evt.button === 0 && (evt.altKey || S.space))) return startPan(evt);
  if (evt.button !== 0) return;
  const p = toMap(evt);
  if (S.bgAdjust && S.bg) {
    S.drag = { kind: "background", start: p, orig: { ...S.bg }, moved: false };
    return;
  }
  const t = target(evt);
  if (!t.station && !t.depot && S.tool !== "select") {
    const near = nearStation(p);
    if (near) t.station = near;
  }
  try { $("#canvas").setPointerCapture(evt.pointerId); } catch { /* synthetic events */ }
  q("tooltip").hidden = true;  // it would hide what is being dragged
  if (S.tool === "line") { lineClick(t.station || null, p, evt.shiftKey); return; }
  if (S.tool === "station" && !t.station && !t.depot) {
    const hit = stretchAt(p, t.line);
    if (hit) { insertStop(hit, evt.shiftKey); return; }
    let id;
    edit(() => { id = addStationAt(snap(p, [], evt.shiftKey).p); });
    select({ kind: "station", id });
    return;
  }
  const label = S.tool === "select" && S.layout && evt.target.closest("#sheet-layer .label[data-station]");
  if (label && station(label.dataset.station)) {
    select({ kind: "station", id: label.dataset.station });
    S.drag = { kind: "label", id: label.dataset.station, el: label, centre: labelCentre(label), start: p, moved: false };
    return;
  }
  // Shift: a click adds the station to the selection (or takes it away), a drag places freely
  const toggle = !!(t.station && evt.shiftKey && S.tool === "select");
  const group = selectedIds();
  if (t.station && group.length > 1 && group.includes(t.station)) {
    const before = snapshot();
    S.drag = { kind: "group", id: t.station, ids: group, before, src: JSON.parse(before), start: p, moved: false, toggle };
    return;
  }
  if (toggle) {
    S.drag = { kind: "station", id: t.station, before: snapshot(), start: p, moved: false, toggle };
  } else if (t.station) {
    // a second press on the same station soon after the first is a double-click (see
    // onMouseDown): the browser's own dblclick never comes, the handle being redrawn
    const last = S.lastPress;
    S.lastPress = { id: t.station, time: evt.timeStamp };
    select({ kind: "station", id: t.station });
    S.double = !!(last && last.id === t.station && evt.timeStamp - last.time < 600);
    if (S.double) { S.lastPress = null; return; }
    S.drag = { kind: "station", id: t.station, before: snapshot(), start: p, moved: false };
  } else if (t.depot) {
    select({ kind: "line", id: t.depot });
    S.drag = { kind: "depot", id: t.depot, before: snapshot(), start: p, moved: false };
  } else if (t.line && !evt.shiftKey) {
    // a click selects the line; a drag from it draws a box, as from empty space
    S.drag = { kind: "box", start: p, add: [], moved: false, line: t.line };
  } else {
    const add = evt.shiftKey ? selectedIds() : [];
    if (!evt.shiftKey) select(null);
    S.drag = { kind: "box", start: p, add, moved: false };
  }
}

function startPan(evt) {
  S.drag = { kind: "pan", x: evt.clientX, y: evt.clientY, view: { ...S.view } };
  $("#canvas").classList.add("panning");
}

function onPointerMove(evt) {
  const p = toMap(evt);
  const d = S.drag;
  if (!d) {
    if (S.pending && S.tool === "line") { S.rubber = p; drawRubber(); }
    hover(evt);
    return;
  }
  if (d.kind === "pan") {
    S.autoFit = false;
    const k = unitsPerPixel();
    setView({ ...d.view, x: d.view.x - (evt.clientX - d.x) * k, y: d.view.y - (evt.clientY - d.y) * k });
    return;
  }
  if (!d.moved && Math.hypot(p.x - d.start.x, p.y - d.start.y) < 4 * unitsPerPixel()) return;
  d.moved = true;
  if (d.kind === "background") {
    S.bg = { ...d.orig, x: round(d.orig.x + p.x - d.start.x), y: round(d.orig.y + p.y - d.start.y) };
    drawBackground();
    return;
  } else if (d.kind === "box") {
    S.box = [d.start, p];
  } else if (d.kind === "group") {
    const o = d.src.stations.find((x) => x.id === d.id);
    const anchors = neighbours(d.id).filter((n) => !d.ids.includes(n.id));
    const res = snap({ x: o.x + p.x - d.start.x, y: o.y + p.y - d.start.y }, anchors, evt.shiftKey);
    moveStations(d.ids, res.p.x - o.x, res.p.y - o.y, d.src);
    S.guides = res.guides;
    for (const id of d.ids) moveSheetStation(id, d.src.stations.find((x) => x.id === id), station(id));
  } else if (d.kind === "label") {
    const k = S.layout.scale;
    const s = station(d.id);
    d.el.setAttribute("transform", `translate(${(p.x - d.start.x) * k} ${(p.y - d.start.y) * k})`);
    d.at = compass(d.centre.x + p.x - d.start.x - s.x, d.centre.y + p.y - d.start.y - s.y);
    status(`name of ${s.name || s.id}: to the ${COMPASS_WORDS[d.at]}`);
    return;
  } else if (d.kind === "station") {
    if (d.toggle && S.sel?.id !== d.id) select({ kind: "station", id: d.id });
    const s = station(d.id);
    const res = snap(p, neighbours(d.id), evt.shiftKey);
    s.x = res.p.x; s.y = res.p.y;
    S.guides = res.guides;
    moveSheetStation(d.id, JSON.parse(d.before).stations.find((x) => x.id === d.id), s);
  } else if (d.kind === "depot") {
    const l = line(d.id);
    const res = snap(p, [], evt.shiftKey);
    l.depot.x = res.p.x; l.depot.y = res.p.y;
  }
  drawOverlay();
}

// While dragging, slide the stale sheet's drawing of the station along with the handle.
function moveSheetStation(id, from, to) {
  if (!S.layout || !from) return;
  const s = S.layout.scale;
  for (const e of $$(`#sheet-layer [data-station="${CSS.escape(id)}"]`)) {
    e.setAttribute("transform", `translate(${(to.x - from.x) * s} ${(to.y - from.y) * s})`);
  }
}

function onPointerUp() {
  const d = S.drag;
  S.drag = null;
  S.guides = [];
  $("#canvas").classList.remove("panning");
  if (!d || d.kind === "pan") return;
  if (d.kind === "background") {
    const moved = S.bg;
    S.bg = d.orig;
    if (d.moved) bgEdit(moved);
    return;
  }
  if (d.kind === "box") {
    const end = S.box ? S.box[1] : null;
    S.box = null;
    if (end) selectStations([...d.add, ...stationsIn(d.start, end)]);
    else if (d.line) select({ kind: "line", id: d.line });
    return;
  }
  if (d.kind === "label") {
    if (!d.moved || !d.at) return;
    const s = station(d.id);
    if (s.label === d.at) { d.el.removeAttribute("transform"); return; }
    S.labelWanted = { id: s.id, at: d.at };
    edit(() => { s.label = d.at; });
    return;
  }
  if (!d.moved && d.toggle) { toggleStation(d.id); return; }
  if (d.moved) {
    refreshShapes();
    remember(step(d.before));
    changed();
  }
}

function hover(evt) {
  const tip = q("tooltip");
  const t = target(evt);
  if (!t.station || !station(t.station)) { tip.hidden = true; return; }
  const s = station(t.station);
  const on = linesAt(s.id);
  tip.replaceChildren(h("b", {}, s.name || s.id), " ", h("span", { class: "muted" }, `(${s.id})`), h("br"),
    `lines: ${on.length ? on.join(", ") : "none"} · intersections: ${S.ix[s.id] ?? on.length}${s.special ? " · special" : ""}`);
  const box = $("#stage").getBoundingClientRect();
  tip.style.left = `${evt.clientX - box.left + 14}px`;
  tip.style.top = `${evt.clientY - box.top + 14}px`;
  tip.hidden = false;
}

// Double-click (or F2, or Enter) names what is selected: the cursor goes to its name field.
function onDoubleClick(evt) {
  const t = target(evt);
  if (t.station || nearStation(toMap(evt))) return;  // onPointerDown saw it
  if (!t.line && !t.depot) return;
  select({ kind: "line", id: t.line || t.depot });
  rename();
}
// The press after pointerdown: a double-click on a station (the browser's click count, or
// two presses close in time) names it; taking the default away keeps the focus in the field.
function onMouseDown(evt) {
  if (!(S.double || (evt.detail >= 2 && S.sel && S.sel.kind === "station"))) return;
  S.double = false;
  S.drag = null;
  evt.preventDefault();
  rename();
}
function rename() {
  const kind = S.sel ? S.sel.kind : "map";
  const f = q({ station: "station-name", line: "line-name" }[kind] || "map-name");
  if (!f) return;
  f.focus();
  f.select();
}

function onWheel(evt) {
  evt.preventDefault();
  if (S.bgAdjust && S.bg) { scaleBackground(toMap(evt), Math.exp(-evt.deltaY * 0.0015)); return; }
  S.autoFit = false;
  const p = toMap(evt);
  const k = Math.exp(evt.deltaY * 0.0015);
  const v = S.view;
  setView({ x: p.x - (p.x - v.x) * k, y: p.y - (p.y - v.y) * k, w: v.w * k, h: v.h * k });
}

function onKey(evt) {
  if (evt.target instanceof Element && evt.target.matches("input, select, textarea")) return;
  const ctrl = evt.ctrlKey || evt.metaKey;
  const key = evt.key.toLowerCase();
  if (ctrl && key === "z") { evt.preventDefault(); if (evt.shiftKey) redo(); else undo(); return; }
  if (ctrl && key === "y") { evt.preventDefault(); redo(); return; }
  if (ctrl && key === "a") { evt.preventDefault(); setTool("select"); selectStations(stations().map((st) => st.id)); return; }
  if (ctrl && key === "s") { evt.preventDefault(); if (S.readonly || evt.shiftKey) saveAs(); else save(); return; }
  if (ctrl || evt.altKey) return;
  if (key === "v") setTool("select");
  else if (key === "s") setTool("station");
  else if (key === "l") setTool("line");
  else if (key === "f") fit();
  else if (key === "g") { S.snap = !S.snap; q("toggle-snap").checked = S.snap; }
  else if (key === "p") runPlaytest();
  else if (key === "t") tidyLayout();
  else if (key === "delete" || key === "backspace") { evt.preventDefault(); deleteSelection(); }
  else if (key === "f2") { evt.preventDefault(); rename(); }
  else if (key === "escape" || key === "enter") {
    if (S.pending) { S.pending = null; S.rubber = null; drawOverlay(); }
    else if (key === "enter" && S.sel) { evt.preventDefault(); rename(); }
    else if (key === "escape") { if (S.tool !== "select") setTool("select"); else select(null); }
  } else if (key.startsWith("arrow") && selectedIds().length) {
    evt.preventDefault();
    const step = evt.shiftKey ? S.grid / 5 : S.grid;
    const dx = { arrowleft: -step, arrowright: step }[key] || 0;
    const dy = { arrowup: -step, arrowdown: step }[key] || 0;
    edit(() => moveStations(selectedIds(), dx, dy));
  } else if (key === " ") {
    evt.preventDefault();
    S.space = true;
  }
}

// ---- tidy layout, import, background ------------------------------------------------------
// The whole map replaced by another (a layout, an import): one edit, so one undo.
function replaceMap(doc) {
  edit((d) => {
    Object.keys(d).forEach((k) => delete d[k]);
    Object.assign(d, doc);
    findAutoShapes();
  });
}
function notesBanner(text, notes) {
  const list = notes.length ? h("ul", { "data-testid": "banner-notes" }, notes.map((n) => h("li", {}, n))) : null;
  banner(text, [["OK", () => banner(null)]], list);
  S.bannerKind = "notes";
}

// Tidy layout (mapkit.layout on the server): the map, or two or more selected stations
// with every other station pinned where it is.
async function tidyLayout() {
  const ids = selectedIds();
  const selection = ids.length > 1 ? ids : null;
  const btn = q("cmd-tidy");
  btn.disabled = true;
  status(selection ? `tidying ${ids.length} stations…` : "tidying the layout…");
  try {
    await waitSynced();
    const body = selection ? { revision: S.revision, selection } : { revision: S.revision };
    const { res, data } = await api("POST", `/api/layout?paper=${S.paper}`, body);
    if (!res.ok) { banner(data.error, [["OK", () => banner(null)]]); S.bannerKind = "refused"; status(""); return; }
    if (data.revision !== S.revision) { status("the map changed while it was laid out: tidy again"); return; }
    replaceMap(data.map);
    const what = `${data.moved} station${data.moved === 1 ? "" : "s"} moved${selection ? " (the rest pinned)" : ""}; undo takes it back`;
    if (data.notes.length) notesBanner(`Tidied: ${what}.`, data.notes);
    S.note = `tidied: ${what}`;
    status(S.note);
  } catch (err) {
    status(`tidy failed: ${err.message}`);
  } finally {
    btn.disabled = false;
  }
}

function openImport() {
  const dialog = q("import-dialog");
  dialog.hidden = !dialog.hidden;
  q("import-message").textContent = "";
}
async function runImport() {
  const file = q("import-file").files[0];
  const say = (text) => { q("import-message").textContent = text; };
  if (!file) { say("choose a GTFS feed (a .zip file) first"); return; }
  const query = new URLSearchParams({
    max_stations: q("import-max-stations").value, max_lines: q("import-max-lines").value,
    route_types: q("import-route-types").value, layout: q("import-layout").checked ? "1" : "0", paper: S.paper,
    name: file.name,
  });
  q("import-run").disabled = true;
  say(`importing ${file.name}…`);
  try {
    const res = await fetch(`/api/import/gtfs?${query}`, {
      method: "POST", headers: { "X-Mapkit-Token": TOKEN, "Content-Type": "application/zip" }, body: file,
    });
    const data = await res.json().catch(() => ({ error: `error ${res.status}` }));
    if (!res.ok) { say(data.error); return; }
    say("");
    q("import-dialog").hidden = true;
    S.sel = null;
    S.autoFit = true;
    S.view = null;
    replaceMap(data.map);
    const checked = data.errors || data.warnings ? `validate: ${data.errors} errors, ${data.warnings} warnings` : "it validates clean";
    notesBanner(`Imported ${file.name}: ${data.stations} stations, ${data.lines} lines; ${checked}. Undo brings back the map you had.`, data.notes);
  } catch (err) {
    say(`import failed: ${err.message}`);
  } finally {
    q("import-run").disabled = false;
  }
}

// The background to trace: the image is kept by the server (in memory), its placement
// (map units) and opacity by the page, per map file, and in the undo steps.
function bgKey() { return `mapkit-studio-bg:${S.path}`; }
function setBackground(bg) {
  S.bg = bg ? { ...bg } : null;
  try {
    if (S.bg) localStorage.setItem(bgKey(), JSON.stringify(S.bg)); else localStorage.removeItem(bgKey());
  } catch { /* a full store: the placement lasts as long as the page */ }
  drawBackground();
}
function bgEdit(next, merge = false) {
  if (JSON.stringify(next) === JSON.stringify(S.bg)) return;
  if (!merge) remember(step(snapshot(), S.bg));
  setBackground(next);
  drawPanels();
}
function drawBackground() {
  const layer = $("#background-layer");
  const bg = S.bg;
  q("background-panel").hidden = !bg;
  if (!bg) { layer.replaceChildren(); return; }
  q("background-opacity").value = bg.opacity;
  const href = `/api/background?token=${encodeURIComponent(TOKEN)}&n=${bg.n}`;
  let img = layer.querySelector("image");
  if (!img) img = el("image", { "data-testid": "background", preserveAspectRatio: "none" }, layer);
  if (img.getAttribute("href") !== href) img.setAttribute("href", href);
  for (const [k, v] of Object.entries({ x: bg.x, y: bg.y, width: bg.w, height: bg.h, opacity: bg.opacity })) img.setAttribute(k, v);
}
async function uploadBackground(file) {
  status(`reading ${file.name}…`);
  const res = await fetch("/api/background", {
    method: "PUT", headers: { "X-Mapkit-Token": TOKEN, "Content-Type": file.type || "application/octet-stream" }, body: file,
  });
  const data = await res.json().catch(() => ({ error: `error ${res.status}` }));
  if (!res.ok) { banner(data.error, [["OK", () => banner(null)]]); S.bannerKind = "refused"; status(""); return; }
  const probe = new Image();
  probe.src = `/api/background?token=${encodeURIComponent(TOKEN)}&n=${data.background}`;
  try { await probe.decode(); } catch { banner(`${file.name} could not be shown as an image`, [["OK", () => banner(null)]]); return; }
  // fitted into the middle of the view, its own proportions kept
  const v = S.view;
  const ratio = probe.naturalHeight / Math.max(probe.naturalWidth, 1);
  let w = v.w * 0.8;
  if (w * ratio > v.h * 0.8) w = (v.h * 0.8) / ratio;
  const bg = { n: data.background, x: round(v.x + (v.w - w) / 2), y: round(v.y + (v.h - w * ratio) / 2), w: round(w), h: round(w * ratio), opacity: S.bg?.opacity ?? 0.45 };
  bgEdit(bg);
  status(`background ${file.name}: tick "move and scale" to line it up`);
}
async function removeBackground() {
  bgEdit(null);
  q("background-adjust").checked = false;
  S.bgAdjust = false;
}
// The placement this browser kept for the map's background, if the server still has the image.
async function loadBackground() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(bgKey()) || "null"); } catch { /* unreadable: none */ }
  if (saved) {
    const res = await fetch(`/api/background?n=${saved.n}`, { method: "HEAD", headers: { "X-Mapkit-Token": TOKEN } });
    if (!res.ok) saved = null;
  }
  setBackground(saved);
}
// The background scaled by k around p (the wheel in "move and scale").
function scaleBackground(p, k) {
  const bg = S.bg;
  const now = Date.now();
  const merge = S.bgWheel && now - S.bgWheel < 700;
  S.bgWheel = now;
  bgEdit({ ...bg, x: round(p.x - (p.x - bg.x) * k), y: round(p.y - (p.y - bg.y) * k), w: round(bg.w * k), h: round(bg.h * k) }, merge);
}

// ---- play-test ----------------------------------------------------------------------------
async function runPlaytest() {
  const cfg = {
    games: Math.max(1, Math.min(5000, +q("playtest-games").value || 200)),
    bots: [q("playtest-bot").value],
    seed: Math.round(+q("playtest-seed").value || 0),
  };
  const btn = q("cmd-playtest");
  btn.disabled = true;
  q("playtest-status").textContent = `playing ${cfg.games} ${cfg.bots[0]} games in the background…`;
  try {
    await waitSynced();
    const played = snapshot();
    const [{ res, data }, ref] = await Promise.all([
      api("POST", "/api/simulate", cfg),
      api("POST", "/api/reference", cfg),
    ]);
    if (!res.ok) { q("playtest-status").textContent = data.error; return; }
    S.playtest = { report: data, reference: ref.res.ok ? ref.data.cities : [], played, cfg };
    q("playtest-status").textContent = `${data.games} games, seed ${data.seed}`;
    drawPlaytest();
    if (S.heat) loadSheet();
  } catch (err) {
    q("playtest-status").textContent = `play-test failed: ${err.message}`;
  } finally {
    btn.disabled = false;
  }
}

// The points the studio suggests: the play-test's, settled (the same run suggests them
// again once applied) and checked to bring no new problem (mapkit.studio.playtest).
function advice(l) { return (S.playtest.report.apply_points || {})[l.line] || l.suggested; }

function drawPlaytest() {
  const box = q("playtest-results");
  const pt = S.playtest;
  if (!pt) { box.replaceChildren(); return; }
  const r = pt.report;
  const seat = r.seats[0];
  const rows = [...pt.reference.map((c) => ({ name: c.name, mean: c.mean })), { name: S.doc.name || "this map", mean: seat.mean, me: true }]
    .sort((a, b) => b.mean - a.mean);
  const top = Math.max(...rows.map((x) => x.mean), 1);
  const stale = pt.played !== snapshot() ? h("p", { class: "needs" }, "The map changed since this play-test.") : null;
  const heat = h("input", { type: "checkbox", "data-testid": "toggle-heatmap" });
  heat.checked = S.heat;
  box.replaceChildren(...[stale,
    h("p", {}, `Mean score (seat 1, ${seat.bot}): `, h("b", { "data-testid": "playtest-mean" }, seat.mean),
      ` ± ${(+seat.sd).toFixed(1)} · p10–p90 ${seat.p10}–${seat.p90} · ${(+r.rounds.mean).toFixed(1)} rounds`),
    h("div", { class: "bars", "data-testid": "playtest-reference" }, rows.map((x) => h("div", { class: x.me ? "this" : null },
      h("span", { class: "name" }, x.name), h("span", { class: "bar", style: { width: `${(150 * x.mean) / top}px` } }), h("span", {}, x.mean)))),
    h("table", { "data-testid": "playtest-lines" },
      h("tr", {}, ["line", "done", "round", "points", "suggested", ""].map((t) => h("th", {}, t))),
      r.lines.map((l) => h("tr", {},
        h("td", {}, l.line), h("td", {}, `${Math.round(l.completion_rate * 100)}%`),
        h("td", {}, l.mean_round == null ? "–" : (+l.mean_round).toFixed(1)),
        h("td", {}, `${l.printed.first}/${l.printed.others}`), h("td", {}, `${advice(l).first}/${advice(l).others}`),
        h("td", {}, h("button", { "data-testid": "apply-points", "data-line": l.line, title: "Use the suggested points" }, "use"))))),
    r.apply_settled === false ? h("p", { class: "muted" }, "The suggested points did not settle: run the play-test again after using them.") : null,
    h("p", {}, h("button", { "data-testid": "apply-all-points" }, "Use all suggested points"), " ",
      h("label", {}, heat, " show where stations stay empty (heatmap)"))].filter(Boolean));
  const apply = (ids) => edit(() => {
    for (const l of r.lines) {
      if (!ids.includes(l.line) || !line(l.line)) continue;
      line(l.line).points = { first: advice(l).first, others: advice(l).others };
    }
  });
  for (const b of box.querySelectorAll("[data-testid=apply-points]")) b.onclick = () => apply([b.dataset.line]);
  q("apply-all-points").onclick = () => apply(r.lines.map((l) => l.line));
  q("toggle-heatmap").onchange = (e) => { S.heat = e.target.checked; loadSheet(); };
}

// ---- autosave, banner, status -------------------------------------------------------------
// Autosave is per tab and per map file: each tab keeps its own entry (its id lives in
// sessionStorage, so a reload is the same tab), beats a heartbeat into it, and offers back
// its own entry or one of a tab that is gone (closed, or cut off by a restart of the
// server), never the entry of a tab still at work, whose edits the server already has.
const TAB = sessionStorage.getItem("mapkit-studio-tab")
  || (() => { const id = Math.random().toString(36).slice(2, 10); sessionStorage.setItem("mapkit-studio-tab", id); return id; })();
const ALIVE_MS = 6000;
function storagePrefix() { return `mapkit-studio:${S.path}:`; }
function storageKey() { return storagePrefix() + TAB; }
function autosave() {
  try {
    if (snapshot() === S.savedText) localStorage.removeItem(storageKey());
    else localStorage.setItem(storageKey(), JSON.stringify({ doc: S.doc, time: Date.now(), alive: Date.now(), orphan: !!S.orphan }));
  } catch (err) { status(`autosave failed: ${err.message}`); }
}
// Called after each answer of the server: this tab is at work.
function heartbeat(alive = Date.now()) {
  const raw = localStorage.getItem(storageKey());
  if (!raw) return;
  try { const e = JSON.parse(raw); e.alive = alive; localStorage.setItem(storageKey(), JSON.stringify(e)); } catch { /* a full store: the entry stays as it was */ }
}
function autosaves() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(storagePrefix())) continue;
    try { out.push({ key, ...JSON.parse(localStorage.getItem(key)) }); } catch { localStorage.removeItem(key); }
  }
  return out;
}
// Offer an autosave now, or (another tab's, not yet known to be gone) a little later.
function offerRestore(tries = 6) {
  if (S.undo.length || S.bannerKind) return;
  const now = Date.now();
  const mine = snapshot();
  const offers = autosaves().filter((e) => e.doc && JSON.stringify(e.doc) !== mine
    && (e.key === storageKey() || e.orphan || now - (e.alive || 0) > ALIVE_MS)).sort((a, b) => b.time - a.time);
  if (!offers.length) {
    if (tries > 1 && autosaves().some((e) => e.key !== storageKey())) setTimeout(() => offerRestore(tries - 1), 2000);
    return;
  }
  const saved = offers[0];
  const when = new Date(saved.time).toLocaleString();
  S.bannerKind = "restore";
  banner(`This browser kept unsaved changes to this map from ${when}.`, [
    ["Restore", () => {
      banner(null);
      if (saved.key !== storageKey()) localStorage.removeItem(saved.key);
      edit((d) => { Object.keys(d).forEach((k) => delete d[k]); Object.assign(d, saved.doc); });
    }, "restore-autosave"],
    ["Download", () => download(saved.doc), "download-autosave"],
    ["Discard", () => { banner(null); localStorage.removeItem(saved.key); }, "discard-autosave"],
  ]);
}
// The map as a file the browser downloads: the work can always be taken out of the page.
function download(doc) {
  const a = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" })),
    download: (S.path.split("/").pop() || "map.json").replace(/\.json$/, "") + "-autosave.json" });
  document.body.append(a);
  a.click();
  a.remove();
}
function banner(text, buttons = [], extra = null) {
  const b = q("banner");
  if (!text) { b.hidden = true; b.replaceChildren(); S.bannerKind = null; return; }
  b.replaceChildren(h("span", { "data-testid": "banner-text" }, text),
    ...buttons.map(([label, fn, testid]) => h("button", { "data-testid": testid || `banner-${label.toLowerCase()}`, onclick: fn }, label)),
    ...(extra ? [extra] : []));
  b.hidden = false;
}
function status(text) { q("status").textContent = text; }
// The server said no to an edit: say why; the edit stays in this browser (autosave).
function refused(res, data) {
  const why = (data && data.error) || `error ${res.status}`;
  if (res.status === 403) {
    S.orphan = true;
    autosave();
    banner(`${why}. Your changes are kept in this browser: open the address mapkit studio printed and they are offered back.`,
      [["Download", () => download(S.doc), "download-autosave"]]);
  } else {
    banner(`The server refused this change: ${why}. It is kept in this browser; undo it or fix it.`,
      [["OK", () => banner(null)], ["Download", () => download(S.doc), "download-autosave"]]);
  }
}
// The marker says whether the map differs from the file: an edit undone is no change.
function markDirty() { q("unsaved-marker").hidden = S.savedText !== null && snapshot() === S.savedText; }
function showFile() {
  q("file-path").textContent = S.path;
  q("readonly-badge").hidden = !S.readonly;
  document.title = `${S.doc.name || "map"} · mapkit studio`;
}

// ---- the server's state: other tabs, the file on disk ------------------------------------
async function poll() {
  if (S.orphan || S.syncing || S.needSync) return;
  let res, data;
  try { ({ res, data } = await api("GET", "/api/status")); } catch { status("server unreachable: is mapkit studio still running?"); return; }
  if (!res.ok) { if (res.status === 403) refused(res, data); return; }
  heartbeat();
  if (data.revision !== S.revision && !S.syncing && !S.needSync && S.bannerKind !== "conflict") {
    const got = await api("GET", "/api/map");
    if (got.res.ok && got.data.revision !== S.revision && !S.syncing && !S.needSync) {
      adopt(got.data, "updated from another tab");
    }
  }
  if (data.disk_changed && !S.bannerKind) diskChanged();
}
// Take the server's map (another tab's edit, or the file reloaded); one undo step goes back.
function adopt(data, note) {
  const before = snapshot();
  S.doc = data.map;
  S.revision = data.revision;
  if (snapshot() !== before) remember(step(before));
  findAutoShapes();
  keepSelection();
  autosave();
  drawOverlay();
  drawPanels();
  status(note);
  Promise.all([loadDiagnostics(), loadSheet(), loadIntersections()]);
}
function diskChanged() {
  S.bannerKind = "disk";
  const name = S.path.split("/").pop();
  const diff = h("pre", { class: "diff", "data-testid": "disk-diff-text", hidden: true });
  banner(`${name} was changed on disk by another program.`, [
    ["Reload", async () => {
      const { res, data } = await api("POST", "/api/reload", {});
      if (!res.ok) { S.bannerKind = "refused"; banner(data.error, [["OK", () => banner(null)]]); return; }
      banner(null);
      adopt(data, `reloaded ${name} from disk`);
      S.savedText = snapshot();
      autosave();
      markDirty();
    }, "disk-reload"],
    ["Keep mine", async () => {
      await api("POST", "/api/keep", {});
      banner(null);
      S.savedText = null;
      autosave();
      markDirty();
      status(`kept the map in the studio; saving replaces ${name}`);
    }, "disk-keep"],
    ["Show changes", async () => {
      const { res, data } = await api("GET", "/api/disk");
      if (!res.ok) return;
      diff.replaceChildren(...(data.diff ? data.diff.split("\n") : ["(no difference)"]).map((t) =>
        h("span", { class: t.startsWith("+") ? "add" : t.startsWith("-") ? "del" : null }, `${t}\n`)));
      diff.hidden = false;
    }, "disk-diff"],
  ], diff);
  S.bannerKind = "disk";
}

// ---- start --------------------------------------------------------------------------------
async function start() {
  try {
    PALETTE = (await api("GET", "/api/palette")).data.palette;
    RULES = (await api("GET", "/api/rulesets")).data;
    const { res, data } = await api("GET", "/api/map");
    if (!res.ok) throw new Error(data.error || `error ${res.status}`);
    S.doc = data.map;
    S.revision = data.revision;
    S.path = data.path;
    S.name = data.name;
    S.readonly = data.readonly;
    S.dirtyAtStart = data.dirty && data.exists;
  } catch (err) {
    S.orphan = true;
    banner(`mapkit studio did not answer: ${err.message}`);
    document.body.dataset.ready = "1";
    return;
  }
  // a new map counts as saved until it is edited; a map the server holds with changes
  // (the page reloaded) counts as unsaved
  S.savedText = S.dirtyAtStart ? null : snapshot();
  showFile();
  findAutoShapes();
  setGrid(S.grid);
  for (const b of $$("[data-tool]")) b.onclick = () => setTool(b.dataset.tool);
  q("cmd-delete").onclick = deleteSelection;
  q("cmd-undo").onclick = undo;
  q("cmd-redo").onclick = redo;
  q("cmd-save").onclick = () => save();
  q("cmd-save-as").onclick = saveAs;
  q("cmd-fit").onclick = fit;
  q("cmd-playtest").onclick = runPlaytest;
  q("cmd-tidy").onclick = tidyLayout;
  q("cmd-import").onclick = openImport;
  q("import-dialog").onsubmit = (e) => { e.preventDefault(); runImport(); };
  q("import-cancel").onclick = () => { q("import-dialog").hidden = true; };
  for (const f of q("import-dialog").querySelectorAll("input")) f.addEventListener("keydown", (e) => e.stopPropagation());
  q("cmd-background").onclick = () => q("background-file").click();
  q("background-file").onchange = (e) => { const f = e.target.files[0]; e.target.value = ""; if (f) uploadBackground(f); };
  q("background-opacity").onchange = (e) => bgEdit({ ...S.bg, opacity: +e.target.value });
  q("background-opacity").oninput = (e) => { $("#background-layer image")?.setAttribute("opacity", e.target.value); };
  q("background-adjust").onchange = (e) => { S.bgAdjust = e.target.checked; $("#canvas").classList.toggle("adjusting", S.bgAdjust); hint(); };
  q("background-remove").onclick = removeBackground;
  q("grid-step").onchange = (e) => { const v = +e.target.value; if (v > 0) setGrid(v); };
  q("toggle-snap").onchange = (e) => { S.snap = e.target.checked; };
  q("toggle-labels").onchange = (e) => { S.labels = e.target.checked; loadSheet(); };
  q("toggle-draft").onchange = (e) => { S.draft = e.target.checked; loadDiagnostics(); };
  q("paper").onchange = (e) => { S.paper = e.target.value; loadSheet(); loadDiagnostics(); };
  const c = $("#canvas");
  c.addEventListener("pointerdown", onPointerDown);
  c.addEventListener("pointermove", onPointerMove);
  c.addEventListener("pointerup", onPointerUp);
  c.addEventListener("pointerleave", () => { q("tooltip").hidden = true; });
  c.addEventListener("mousedown", onMouseDown);
  c.addEventListener("dblclick", onDoubleClick);
  c.addEventListener("wheel", onWheel, { passive: false });
  window.addEventListener("keydown", onKey);
  window.addEventListener("keyup", (e) => { if (e.key === " ") S.space = false; });
  window.addEventListener("blur", () => { S.space = false; });
  window.addEventListener("resize", () => S.view && setView({ ...S.view }));
  window.addEventListener("beforeunload", (e) => { if (!q("unsaved-marker").hidden) e.preventDefault(); });
  drawPanels();
  await Promise.all([loadDiagnostics(), loadSheet(), loadIntersections(), loadBackground()]);
  if (!S.view) fit();
  drawOverlay();
  status(`${stations().length} stations · ${lines().length} lines`);
  offerRestore();
  setInterval(poll, 1500);
  // a closed tab's autosave is offered to the next tab at once
  window.addEventListener("pagehide", () => heartbeat(0));
  document.body.dataset.ready = "1";
}

start();
