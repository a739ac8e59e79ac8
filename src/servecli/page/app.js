// The page of `lore serve` (docs/serve.md): plain DOM, no framework, no
// innerHTML with data: the Markdown the server renders (raw HTML escaped by
// md4c) is parsed inert and copied element by element through an allowlist. Every request carries the run's token in the
// X-Lore-Token header; the views are chosen by the URL's hash.
'use strict';

(function () {
  const token = new URLSearchParams(location.search).get('t') || '';
  const SVG = 'http://www.w3.org/2000/svg';

  // ---- small helpers -------------------------------------------------------

  // h('div', {class: 'x', test: 'name', on: {click: f}}, child, 'text', ...)
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }

  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG, tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }

  function setAttrs(el, attrs) {
    if (!attrs) return;
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'on') {
        for (const [ev, f] of Object.entries(v)) el.addEventListener(ev, f);
      } else if (k === 'test') {
        el.setAttribute('data-test', v);
      } else if (k === 'text') {
        el.textContent = String(v);
      } else if (k === 'value') {
        el.value = v;
      } else if (k === 'checked' || k === 'disabled') {
        el[k] = Boolean(v);
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
  }

  // ---- rendered Markdown ---------------------------------------------------

  // The elements Markdown makes; anything else is dropped with its content
  // kept as text (an image keeps its alt text).
  const MD_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote',
    'pre', 'code', 'em', 'strong', 'del', 's', 'a', 'hr', 'br', 'table', 'thead', 'tbody', 'tr',
    'th', 'td', 'input', 'span', 'div', 'sup', 'sub']);

  function safeHref(v) {
    const t = String(v || '').trim();
    if (/^(https?:|mailto:)/i.test(t) || t.startsWith('#')) return t;
    if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('//')) return null;  // javascript:, data:, ...
    return t;  // relative
  }

  function copySafe(src, dst) {
    for (const n of src.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) {
        dst.appendChild(document.createTextNode(n.nodeValue));
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        const tag = n.tagName.toLowerCase();
        if (tag === 'img') {
          const alt = n.getAttribute('alt');
          if (alt) dst.appendChild(document.createTextNode(alt));
          continue;
        }
        if (!MD_TAGS.has(tag)) {
          copySafe(n, dst);
          continue;
        }
        const el = document.createElement(tag);
        if (tag === 'a') {
          const href = safeHref(n.getAttribute('href'));
          if (href !== null) el.setAttribute('href', href);
          el.setAttribute('rel', 'noopener noreferrer');
        } else if (tag === 'input') {
          if (n.getAttribute('type') !== 'checkbox') continue;
          el.setAttribute('type', 'checkbox');
          el.disabled = true;
          el.checked = n.hasAttribute('checked');
        } else if ((tag === 'th' || tag === 'td') && /^(left|right|center)$/.test(n.getAttribute('align') || '')) {
          el.setAttribute('align', n.getAttribute('align'));
        } else if (tag === 'code' && /^language-[\w+-]+$/.test(n.getAttribute('class') || '')) {
          el.setAttribute('class', n.getAttribute('class'));
        }
        copySafe(n, el);
        dst.appendChild(el);
      }
    }
  }

  // The server's rendered fragment as DOM: parsed in an inert document (no
  // script runs, nothing loads), then copied through the allowlist.
  function markdown(html, attrs) {
    const box = h('div', Object.assign({ class: 'markdown' }, attrs || {}));
    const doc = new DOMParser().parseFromString('<!doctype html><body>' + String(html || ''), 'text/html');
    copySafe(doc.body, box);
    return box;
  }

  // "2026-01-16T00:48:00.123Z" -> "2026-01-16 00:48"
  function when(t) {
    if (!t || typeof t !== 'string') return '—';
    const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(t);
    return m ? m[1] + ' ' + m[2] : t;
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : (many || one + 's'));
  }

  function itemHref(id) {
    return '#item/' + encodeURIComponent(id).replace(/%2F/g, '/').replace(/%3A/g, ':');
  }

  function itemLink(id, label, test) {
    return h('a', { href: itemHref(id), test: test || 'item-link', 'data-id': id }, label || id);
  }

  // ---- the API ---------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || ('HTTP ' + status));
      this.status = status;
      this.body = body || {};
    }
  }

  async function call(method, path, body) {
    const init = { method, headers: { 'X-Lore-Token': token }, cache: 'no-store' };
    if (method === 'POST') {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body || {});
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, { error: 'the server does not answer (is lore serve still running?)',
                               repair: 'start lore serve again and open the address it prints' });
    }
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }

  function get(path, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== undefined && v !== null && v !== '') q.set(k, v);
    }
    const qs = q.toString();
    return call('GET', path + (qs ? '?' + qs : ''));
  }

  function post(path, body) {
    return call('POST', path, body);
  }

  // ---- messages --------------------------------------------------------------

  const errorLine = document.getElementById('error');
  const noticeLine = document.getElementById('notice');

  function describe(err) {
    if (err instanceof ApiError) {
      let line = err.body.error || err.message;
      if (err.status === 403 && !token) line = 'this page needs the address lore serve printed, with its ?t= token';
      if (err.body.repair) line += ' — ' + err.body.repair;
      return line;
    }
    return String((err && err.message) || err);
  }

  function showError(err) {
    errorLine.textContent = describe(err);
    errorLine.hidden = false;
  }

  function notice(text) {
    noticeLine.textContent = text;
    noticeLine.hidden = !text;
  }

  function clearMessages() {
    errorLine.hidden = true;
    errorLine.textContent = '';
    notice('');
  }

  // ---- routing ---------------------------------------------------------------

  const view = document.getElementById('view');
  let generation = 0;      // a render that is no longer current draws nothing
  let poller = null;        // the Watch view's timer

  function parseHash() {
    let hash = location.hash.replace(/^#/, '');
    let query = '';
    const q = hash.indexOf('?');
    if (q >= 0 && !hash.startsWith('item/')) {
      query = hash.slice(q + 1);
      hash = hash.slice(0, q);
    }
    if (hash.startsWith('item/')) {
      let id = hash.slice(5);
      try { id = decodeURIComponent(id); } catch (e) { /* keep it as it is */ }
      return { name: 'item', id, params: new URLSearchParams() };
    }
    return { name: hash || 'briefing', params: new URLSearchParams(query) };
  }

  const views = {
    briefing: renderBriefing,
    review: renderReview,
    search: renderSearch,
    decisions: (g) => renderRecords(g, 'decision', 'Decisions'),
    requests: (g) => renderRecords(g, 'request', 'Requests'),
    knowledge: (g) => renderRecords(g, 'knowledge', 'Knowledge'),
    learnings: renderLearnings,
    sessions: renderSessions,
    activity: renderActivity,
    watch: renderWatch,
    item: renderItem,
  };

  async function route(keepMessages) {
    const g = ++generation;
    if (poller) {
      clearInterval(poller);
      poller = null;
    }
    if (!keepMessages) clearMessages();
    const r = parseHash();
    const render = views[r.name];
    for (const a of document.querySelectorAll('#nav a')) {
      a.classList.toggle('active', a.dataset.view === r.name);
    }
    document.body.dataset.view = render ? r.name : 'none';
    delete view.dataset.ready;
    clear(view);
    if (!render) {
      view.appendChild(h('p', { class: 'empty' }, 'No such view. ', h('a', { href: '#briefing' }, 'Back to the briefing')));
      return;
    }
    view.appendChild(h('p', { class: 'loading', test: 'loading' }, 'Loading…'));
    try {
      const node = await render(g, r);
      if (g !== generation) return;
      clear(view);
      if (node) view.appendChild(node);
      view.dataset.ready = r.name;
    } catch (err) {
      if (g !== generation) return;
      clear(view);
      showError(err);
    }
  }

  function current(g) {
    return g === generation;
  }

  // ---- header ----------------------------------------------------------------

  document.getElementById('undo').addEventListener('click', async () => {
    clearMessages();
    try {
      const r = await post('/api/undo', {});
      await route(true);
      notice('Undone: ' + (r.undone || 'the last change'));
    } catch (err) {
      showError(err);
    }
  });

  // ---- briefing ----------------------------------------------------------------

  async function renderBriefing() {
    const o = await get('/api/overview');
    document.getElementById('repo').textContent = o.repo || '';
    const counts = o.counts || {};
    const names = [
      ['decisions', 'decisions', '#decisions'],
      ['requests', 'requests', '#requests'],
      ['knowledge', 'knowledge pages', '#knowledge'],
      ['learnings', 'learnings', '#learnings'],
      ['sessions', 'sessions', '#sessions'],
      ['pending', 'proposals to review', '#review'],
    ];
    const b = o.briefing || {};
    return h('section', { class: 'briefing' },
      h('h1', null, 'Briefing'),
      h('p', { class: 'sub' }, 'What the next session of an agent will be told. Store: ',
        h('code', { test: 'store' }, o.store || '')),
      h('ul', { class: 'counts', test: 'counts' },
        names.map(([k, label, href]) => h('li', null,
          h('a', { href },
            h('strong', { test: 'count-' + k }, String(counts[k] ?? 0)), ' ', label)))),
      h('div', { class: 'card' },
        h('p', { class: 'meta' }, h('span', { test: 'briefing-chars' }, String(b.chars ?? 0)), ' characters'),
        b.text
          ? (typeof b.html === 'string' ? markdown(b.html, { test: 'briefing-text' }) : h('pre', { class: 'text', test: 'briefing-text' }, b.text))
          : h('p', { class: 'empty', test: 'briefing-text' }, 'No briefing yet: it is written by the first consolidation.')));
  }

  // ---- records -----------------------------------------------------------------

  function usageLine(u) {
    u = u || {};
    return h('span', { class: 'usage', test: 'usage' },
      u.pinned ? h('span', { class: 'badge pin', test: 'pinned' }, 'pinned') : null,
      'shown ', String(u.shown ?? 0), ' · opened ', String(u.opened ?? 0),
      ' · last used ', when(u.last_used));
  }

  function statusBadge(status) {
    if (!status) return null;
    return h('span', { class: 'badge status-' + status, test: 'status' }, status);
  }

  function sourcesList(sources) {
    if (!sources || !sources.length) return null;
    return h('span', { class: 'sources', test: 'sources' }, 'from ',
      sources.map((src, i) => [i ? ', ' : '',
        itemLink(src.id, (src.session_id || 'session') + ' ' + (src.lines || []).join('–'), 'source')]));
  }

  function recordRow(it) {
    return h('li', { class: 'row', test: 'record', 'data-id': it.id },
      h('div', { class: 'line1' },
        itemLink(it.id, it.title || it.slug, 'record-title'), ' ', statusBadge(it.status),
        it.replaced_by ? h('span', { class: 'muted' }, ' → replaced by ', it.replaced_by) : null),
      h('div', { class: 'line2' },
        h('span', { class: 'muted' }, 'updated ', when(it.updated_at || it.created_at)), ' · ',
        usageLine(it.usage),
        it.sources && it.sources.length ? [' · ', sourcesList(it.sources)] : null),
      (it.issues && it.issues.length)
        ? h('ul', { class: 'issues', test: 'record-issues' }, it.issues.map((t) => h('li', null, typeof t === 'string' ? t : JSON.stringify(t))))
        : null);
  }

  // The records of a kind, most recently written first, a page (200) at a
  // time: "Show more" asks for the next one.
  async function renderRecords(g, kind, title) {
    const r = await get('/api/records', { kind });
    const items = r.items || [];
    const total = r.total ?? items.length;
    if (items.length === 0) {
      return h('section', null, h('h1', null, title, ' ', h('span', { class: 'n' }, '0')),
        h('p', { class: 'empty' }, 'No ' + title.toLowerCase() + ' yet.'));
    }
    const list = h('ul', { class: 'list', test: 'records' }, items.map(recordRow));
    let shown = (r.offset || 0) + items.length;
    const count = h('p', { class: 'muted small', test: 'records-shown' });
    const more = h('button', { type: 'button', test: 'records-more' }, 'Show more');
    const update = () => {
      count.textContent = shown < total ? 'Showing ' + shown + ' of ' + total + '.' : '';
      more.hidden = shown >= total;
    };
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const next = await get('/api/records', { kind, offset: String(shown) });
        const got = next.items || [];
        append(list, got.map(recordRow));
        shown += got.length;
        if (got.length === 0) shown = total;
      } catch (err) {
        showError(err);
      } finally {
        more.disabled = false;
        update();
      }
    });
    update();
    return h('section', null,
      h('h1', null, title, ' ', h('span', { class: 'n', test: 'records-total' }, String(total))),
      list, h('div', { class: 'actions' }, count, more));
  }

  // ---- one item ------------------------------------------------------------------

  async function renderItem(g, r) {
    const it = await get('/api/item', { id: r.id });
    const u = it.usage || {};
    const box = h('section', { class: 'item', test: 'item', 'data-id': it.id });
    const textPre = itemBody(it);
    const actions = h('div', { class: 'actions' });

    const pinBtn = h('button', { type: 'button', test: 'pin', on: { click: async () => {
      clearMessages();
      try {
        const res = await post('/api/pin', { id: it.id, pin: !u.pinned });
        await route(true);
        notice(res.pinned ? 'Pinned: it is shown to the agent first.' : 'Unpinned.');
      } catch (err) { showError(err); }
    } } }, u.pinned ? 'Unpin' : 'Pin');
    actions.appendChild(pinBtn);

    let editor = null;
    if (it.editable) {
      actions.appendChild(h('button', { type: 'button', test: 'edit', on: { click: () => {
        if (editor) return;
        editor = makeEditor(it, textPre);
        textPre.replaceWith(editor);
      } } }, 'Edit'));
      const by = h('input', { type: 'text', test: 'replace-input', placeholder: 'slug of the ' + (it.kind || 'record') + ' that replaces it', 'aria-label': 'replaced by' });
      const replace = h('form', { class: 'inline', test: 'replace-form', on: { submit: async (ev) => {
        ev.preventDefault();
        clearMessages();
        const slug = by.value.trim();
        if (!slug) { showError('name the slug of the record that replaces this one'); return; }
        try {
          const res = await post('/api/replace', { id: it.id, by: slug });
          await route(true);
          notice('Marked replaced by ' + res.replaced_by + '.');
        } catch (err) { showError(err); }
      } } }, by, h('button', { type: 'submit', test: 'replace-submit' }, 'Mark replaced'));
      actions.appendChild(replace);
    }

    append(box, [
      h('p', { class: 'crumbs' }, h('a', { href: backHref(it) }, '← back')),
      h('h1', { class: 'mono' }, it.id),
      h('p', { class: 'meta' },
        it.kind ? [h('span', { class: 'badge' }, it.kind), ' '] : null,
        h('span', { class: 'muted' }, it.file + (it.line ? ':' + it.line : '')), ' · ',
        usageLine(u)),
      actions,
      textPre,
    ]);
    return box;
  }

  // What an item shows: a source as a conversation, a Markdown file rendered
  // (its frontmatter and text folded below), anything else as text.
  function itemBody(it) {
    if (Array.isArray(it.turns)) {
      if (!it.turns.length) return h('pre', { class: 'text', test: 'item-text' }, it.text || '');
      return h('ol', { class: 'conversation', test: 'conversation' }, it.turns.map(turn));
    }
    const raw = h('pre', { class: 'text', test: 'item-text' }, it.text || '');
    if (typeof it.html !== 'string') return raw;
    return h('div', { class: 'rendered' },
      markdown(it.html, { test: 'item-html' }),
      it.frontmatter ? h('details', { class: 'frontmatter' }, h('summary', null, 'Frontmatter'),
        h('pre', { class: 'text', test: 'item-frontmatter' }, it.frontmatter)) : null,
      h('details', { class: 'source-text' }, h('summary', null, 'The file as it is (Markdown)'), raw));
  }

  const WHO = { person: 'Person', agent: 'Agent', 'tool call': 'Tool call', 'tool result': 'Tool result',
    compaction: 'Compaction summary', interrupt: 'Interrupted' };

  function turn(t) {
    const who = String(t.who || '');
    let head = WHO[who] || who;
    if (t.tool) head += ' · ' + t.tool;
    if (t.status) head += ' · ' + t.status + (t.exit !== undefined && t.exit !== null ? ' (exit ' + t.exit + ')' : '');
    const meta = h('div', { class: 'turn-head' }, h('strong', null, head),
      t.note ? h('span', { class: 'muted' }, ' — ', t.note) : null,
      h('span', { class: 'muted small' }, ' line ', String(t.line ?? ''), t.at ? ' · ' + when(t.at) : ''));
    let body;
    if (who === 'tool call') {
      body = t.text ? h('pre', { class: 'call' }, t.text) : null;
    } else if (who === 'tool result') {
      body = [t.reason ? h('p', null, t.reason) : null,
        h('blockquote', { class: 'result' }, h('pre', null, t.text || ''))];
    } else {
      body = h('p', { class: 'said' }, t.text || '');
    }
    return h('li', { class: 'turn who-' + who.replace(/\s+/g, '-'), test: 'turn', 'data-who': who }, meta, body);
  }

  function backHref(it) {
    const k = { decision: '#decisions', request: '#requests', knowledge: '#knowledge' }[it.kind];
    if (k) return k;
    if (String(it.id).startsWith('learnings')) return '#learnings';
    if (String(it.id).startsWith('sessions/')) return '#sessions';
    return '#briefing';
  }

  function makeEditor(it, textPre) {
    const area = h('textarea', { test: 'edit-text', spellcheck: 'false', rows: '22', 'aria-label': 'record text' });
    area.value = it.text || '';
    const findings = h('div', { class: 'findings', test: 'lint-findings', hidden: true });
    const save = h('button', { type: 'submit', class: 'primary', test: 'edit-save' }, 'Save');
    const form = h('form', { class: 'editor', test: 'editor', on: { submit: async (ev) => {
      ev.preventDefault();
      clearMessages();
      findings.hidden = true;
      clear(findings);
      save.disabled = true;
      try {
        const res = await post('/api/edit', { id: it.id, text: area.value });
        await route(true);
        notice(res.written === false ? 'Nothing changed.' : 'Saved ' + res.id + '.');
      } catch (err) {
        save.disabled = false;
        showError(err);
        if (err instanceof ApiError && err.status === 422) showFindings(findings, err.body.findings || []);
      }
    } } },
    area,
    h('div', { class: 'actions' }, save,
      h('button', { type: 'button', test: 'edit-cancel', on: { click: () => route() } }, 'Cancel')),
    findings);
    return form;
  }

  function showFindings(box, list) {
    clear(box);
    box.appendChild(h('p', { class: 'findings-title' }, 'The linter refused this text; nothing was written. Fix these and save again:'));
    box.appendChild(h('ul', null, list.map((f) =>
      h('li', { class: 'finding ' + (f.severity || ''), test: 'lint-finding' },
        h('span', { class: 'where' }, f.line ? 'line ' + f.line : 'record'), ' ',
        h('span', { class: 'badge sev-' + (f.severity || 'error') }, f.severity || 'error'), ' ',
        f.rule ? h('code', null, f.rule) : null, ' ',
        h('span', { class: 'message', test: 'lint-message' }, f.message || ''),
        f.repair ? h('div', { class: 'repair', test: 'lint-repair' }, 'repair: ', f.repair) : null))));
    box.hidden = false;
  }

  // ---- learnings -----------------------------------------------------------------

  async function renderLearnings() {
    const r = await get('/api/learnings');
    const items = r.items || [];
    return h('section', null,
      h('h1', null, 'Learnings ', h('span', { class: 'n' }, String(items.length))),
      items.length === 0
        ? h('p', { class: 'empty' }, 'No learnings yet: they come from reviewed proposals.')
        : h('ul', { class: 'list', test: 'learnings' }, items.map((l) =>
          h('li', { class: 'row' + (l.live === false ? ' dead' : ''), test: 'learning', 'data-id': l.id },
            h('div', { class: 'line1' },
              itemLink(l.id, l.subject || l.id, 'learning-title'), ' ',
              h('span', { class: 'badge' }, l.type || ''),
              l.live === false ? h('span', { class: 'badge status-replaced' }, 'expired') : null),
            h('p', { class: 'body' }, l.text || ''),
            h('div', { class: 'line2 muted' },
              'confidence ', l.confidence === null || l.confidence === undefined ? '—' : String(l.confidence),
              l.occurrences ? ' · seen ' + plural(l.occurrences, 'time') : '',
              ' · expires ', when(l.expires_at), ' · ', usageLine(l.usage))))));
  }

  // ---- sessions ------------------------------------------------------------------

  // The session logs, newest first, a page (50) at a time: "Show more" asks
  // for the next page with the cursor the last one gave.
  function sessionRow(x) {
    return h('li', { test: 'session', 'data-id': x.id },
      h('div', { class: 'when' }, when(x.started_at), x.ended_at ? h('span', { class: 'muted' }, ' → ', when(x.ended_at)) : null),
      h('div', { class: 'what' },
        h('div', { class: 'line1' }, itemLink(x.id, x.task || x.session_id || x.id, 'session-title')),
        x.outcome ? h('p', { class: 'body' }, x.outcome) : null,
        (x.outcomes && x.outcomes.length) ? h('ul', { class: 'outcomes' }, x.outcomes.map((o) => h('li', null, o))) : null,
        (x.files && x.files.length) ? h('p', { class: 'files' }, x.files.map((f) => h('code', { class: 'chip' }, f))) : null,
        h('p', { class: 'muted' }, 'session ', h('code', null, x.session_id || ''), ' · ',
          plural(x.failures || 0, 'failure'), ' · ', (x.unresolved || 0) + ' unresolved')));
  }

  async function renderSessions() {
    const r = await get('/api/sessions');
    const items = r.items || [];
    const total = r.total ?? items.length;
    if (items.length === 0) {
      return h('section', null,
        h('h1', null, 'Sessions ', h('span', { class: 'n', test: 'sessions-total' }, '0')),
        h('p', { class: 'empty' }, 'No session logs yet.'));
    }
    const list = h('ol', { class: 'timeline', test: 'sessions' }, items.map(sessionRow));
    let shown = items.length;
    let next = r.next ?? null;
    const count = h('p', { class: 'muted small', test: 'sessions-shown' });
    const more = h('button', { type: 'button', test: 'sessions-more' }, 'Show more');
    const update = () => {
      count.textContent = next ? 'Showing ' + shown + ' of ' + total + '.' : '';
      more.hidden = !next;
    };
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const page = await get('/api/sessions', { after: next });
        const got = page.items || [];
        append(list, got.map(sessionRow));
        shown += got.length;
        next = got.length ? (page.next ?? null) : null;
      } catch (err) {
        showError(err);
      } finally {
        more.disabled = false;
        update();
      }
    });
    update();
    return h('section', null,
      h('h1', null, 'Sessions ', h('span', { class: 'n', test: 'sessions-total' }, String(total))),
      list, h('div', { class: 'actions' }, count, more));
  }

  // ---- search --------------------------------------------------------------------

  async function renderSearch(g, r) {
    const q = r.params.get('q') || '';
    const explain = r.params.get('explain') === '1';
    const scope = r.params.get('scope') || 'all';
    const input = h('input', { type: 'search', test: 'search-input', name: 'q', value: q, placeholder: 'words, a file name, an error…', 'aria-label': 'search' });
    const sel = h('select', { test: 'search-scope', 'aria-label': 'scope' },
      ['all', 'memory', 'knowledge', 'sessions', 'learnings'].map((v) => h('option', { value: v }, v)));
    sel.value = scope;
    const go = (withExplain) => {
      const p = new URLSearchParams();
      p.set('q', input.value);
      if (sel.value !== 'all') p.set('scope', sel.value);
      if (withExplain) p.set('explain', '1');
      const next = '#search?' + p.toString();
      if (location.hash === next) route(); else location.hash = next;
    };
    const form = h('form', { class: 'search', test: 'search-form', on: { submit: (ev) => { ev.preventDefault(); go(explain); } } },
      input, sel, h('button', { type: 'submit', class: 'primary', test: 'search-submit' }, 'Search'));
    const box = h('section', null, h('h1', null, 'Search'), form);
    if (!q.trim()) {
      box.appendChild(h('p', { class: 'empty' }, 'Search the memory, knowledge, learnings and session logs.'));
      setTimeout(() => input.focus(), 0);
      return box;
    }
    const res = await get('/api/search', { q, scope: scope === 'all' ? '' : scope, explain: explain ? '1' : '' });
    const hits = res.hits || [];
    box.appendChild(h('p', { class: 'meta' },
      h('span', { test: 'search-count' }, plural(hits.length, 'hit')), ' ',
      h('button', { type: 'button', class: 'quiet', test: 'search-why', 'aria-pressed': explain ? 'true' : 'false',
        on: { click: () => go(!explain) } }, explain ? 'Hide why' : 'Why these hits?')));
    for (const w of res.warnings || []) box.appendChild(h('p', { class: 'warning' }, typeof w === 'string' ? w : JSON.stringify(w)));
    box.appendChild(h('ol', { class: 'list hits', test: 'search-hits' }, hits.map((hit) => {
      const score = hit.score ?? (hit.explain ? hit.explain.total : undefined);
      return h('li', { class: 'row', test: 'search-hit', 'data-id': hit.id },
        h('div', { class: 'line1' }, itemLink(hit.id, hit.id, 'hit-id'), ' ',
          h('span', { class: 'badge' }, hit.scope || ''), hit.kind ? [' ', h('span', { class: 'badge' }, hit.kind)] : null,
          score !== undefined ? h('span', { class: 'score', test: 'hit-score' }, 'score ', fmt(score)) : null),
        h('pre', { class: 'excerpt', test: 'hit-excerpt' }, hit.excerpt || ''),
        hit.explain ? explainTable(hit.explain, hit.why) : null);
    })));
    return box;
  }

  function fmt(x) {
    return typeof x === 'number' ? (Math.round(x * 1000) / 1000).toString() : String(x);
  }

  function explainTable(e, why) {
    const rows = [];
    for (const [k, v] of Object.entries(e)) {
      if (k === 'expansions') continue;
      rows.push(h('tr', null, h('th', null, k), h('td', null, typeof v === 'object' ? JSON.stringify(v) : fmt(v))));
    }
    const terms = (e.expansions || []).map((x) => typeof x === 'string' ? x
      : (x.term || '') + (x.of ? ' (' + (x.stage || '') + ' of ' + x.of + ')' : ''));
    return h('div', { class: 'explain', test: 'hit-explain' },
      Array.isArray(why) && why.length ? h('ul', { class: 'why', test: 'hit-why' }, why.map((w) => h('li', null, w))) : null,
      h('details', null, h('summary', null, 'The numbers (score ', fmt(e.total), ')'),
        h('table', null, h('tbody', null, rows)),
        terms.length ? h('p', { class: 'muted' }, 'expansion terms: ', terms.join(', ')) : null));
  }

  // ---- review --------------------------------------------------------------------

  let lastReview = null;  // the result of the last apply, shown above the next batch

  async function renderReview(g) {
    const r = await get('/api/review');
    const batch = r.batch || [];
    const box = h('section', { class: 'review' }, h('h1', null, 'Review ', h('span', { class: 'n', test: 'review-pending' }, String(r.pending ?? 0))));
    if (lastReview) {
      box.appendChild(lastReview);
      lastReview = null;
    }
    if (batch.length === 0) {
      box.appendChild(h('p', { class: 'empty', test: 'review-empty' }, 'Nothing to review: no proposal is waiting.'));
      return box;
    }
    box.appendChild(h('p', { class: 'sub' },
      'Keep what should be remembered for good; decline the rest. Proposals left undecided stay queued. ',
      plural(r.pending ?? batch.length, 'proposal'), ' pending.'));
    const choices = new Map();
    const apply = h('button', { type: 'button', class: 'primary', test: 'review-apply', disabled: true }, 'Apply');
    const cards = batch.map((p) => {
      const name = 'choice-' + p.id;
      const keep = h('input', { type: 'radio', name, value: 'keep', test: 'keep' });
      const decline = h('input', { type: 'radio', name, value: 'decline', test: 'decline' });
      const card = h('li', { class: 'proposal', test: 'proposal', 'data-id': p.id },
        h('div', { class: 'line1' }, h('strong', { test: 'proposal-subject' }, p.subject || ''), ' ',
          h('span', { class: 'badge' }, p.type || ''),
          p.confidence !== undefined && p.confidence !== null ? h('span', { class: 'muted' }, ' confidence ' + p.confidence) : null),
        h('p', { class: 'body' }, p.text || ''),
        p.why ? h('p', { class: 'why' }, h('span', { class: 'muted' }, 'evidence: '), p.why) : null,
        h('p', { class: 'muted small' }, 'proposed ', when(p.proposed_at), ' · ', h('code', null, p.id)),
        h('div', { class: 'choice' },
          h('label', { class: 'keep' }, keep, ' Keep'),
          h('label', { class: 'decline' }, decline, ' Decline')));
      for (const input of [keep, decline]) {
        input.addEventListener('change', () => {
          choices.set(p.id, input.value);
          card.dataset.choice = input.value;
          apply.disabled = choices.size === 0;
        });
      }
      return card;
    });
    const all = (v) => () => {
      for (const c of cards) {
        const input = c.querySelector('input[value="' + v + '"]');
        input.checked = true;
        input.dispatchEvent(new Event('change'));
      }
    };
    apply.addEventListener('click', async () => {
      clearMessages();
      const approve = [], decline = [];
      for (const [id, v] of choices) (v === 'keep' ? approve : decline).push(id);
      apply.disabled = true;
      try {
        const res = await post('/api/review', { approve, decline });
        lastReview = reviewResult(res, batch);
        await route(true);
      } catch (err) {
        apply.disabled = false;
        showError(err);
      }
    });
    append(box, [
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'quiet', test: 'keep-all', on: { click: all('keep') } }, 'Keep all'),
        h('button', { type: 'button', class: 'quiet', test: 'decline-all', on: { click: all('decline') } }, 'Decline all')),
      h('ol', { class: 'proposals', test: 'review-batch' }, cards),
      h('div', { class: 'actions' }, apply),
    ]);
    return box;
  }

  function reviewResult(res, batch) {
    const subject = new Map(batch.map((p) => [p.id, p.subject]));
    const already = res.already || [];
    return h('div', { class: 'card result', test: 'review-result' },
      h('p', null, 'Kept ', h('strong', { test: 'review-approved' }, String(res.approved ?? 0)),
        ', declined ', h('strong', { test: 'review-declined' }, String(res.declined ?? 0)),
        '; ', String(res.pending ?? 0), ' still pending.'),
      already.length
        ? h('div', { class: 'already', test: 'review-already' },
          h('p', null, 'Already decided elsewhere (left as they were):'),
          h('ul', null, already.map((id) => h('li', { 'data-id': id, test: 'already-id' },
            h('code', null, id), subject.get(id) ? ' ' + subject.get(id) : ''))))
        : null);
  }

  // ---- activity ------------------------------------------------------------------

  async function renderActivity() {
    const r = await get('/api/activity');
    const weeks = r.weeks || [];
    const files = r.files || [];
    return h('section', { class: 'activity' },
      h('h1', null, 'Activity'),
      h('h2', null, 'Per week'),
      weeks.length ? weekChart(weeks) : h('p', { class: 'empty' }, 'No sessions yet.'),
      h('h2', null, 'Files edited most'),
      files.length ? fileBars(files) : h('p', { class: 'empty' }, 'No file edits recorded yet.'));
  }

  const SERIES = [['sessions', 'sessions'], ['failures', 'failures'], ['lessons', 'lessons']];

  function weekChart(weeks) {
    const max = Math.max(1, ...weeks.flatMap((w) => SERIES.map(([k]) => Number(w[k]) || 0)));
    const barW = 12, gap = 3, groupGap = 18, top = 16, chartH = 160, bottom = 36, left = 30;
    const groupW = SERIES.length * barW + (SERIES.length - 1) * gap;
    const width = left + weeks.length * (groupW + groupGap) + 10;
    const height = top + chartH + bottom;
    const svg = s('svg', { class: 'chart', test: 'activity-weeks', viewBox: '0 0 ' + width + ' ' + height,
      width: String(width), height: String(height), role: 'img', 'aria-label': 'sessions, failures and lessons per week' });
    for (const frac of [0, 0.5, 1]) {
      const y = top + chartH - frac * chartH;
      svg.appendChild(s('line', { x1: left, x2: width, y1: y, y2: y, class: 'grid' }));
      svg.appendChild(s('text', { x: left - 4, y: y + 4, class: 'axis', 'text-anchor': 'end' }, String(Math.round(frac * max))));
    }
    weeks.forEach((w, i) => {
      const x0 = left + i * (groupW + groupGap) + groupGap / 2;
      SERIES.forEach(([k], j) => {
        const v = Number(w[k]) || 0;
        const bh = (v / max) * chartH;
        const rect = s('rect', { x: x0 + j * (barW + gap), y: top + chartH - bh, width: barW, height: Math.max(bh, v ? 1 : 0), class: 'bar ' + k, 'data-week': w.week, 'data-series': k });
        rect.appendChild(s('title', null, w.week + ': ' + v + ' ' + k));
        svg.appendChild(rect);
      });
      svg.appendChild(s('text', { x: x0 + groupW / 2, y: top + chartH + 16, class: 'axis', 'text-anchor': 'middle' }, String(w.week).replace(/^\d{4}-/, '')));
    });
    const legend = h('p', { class: 'legend' }, SERIES.map(([k, label]) => h('span', null, h('i', { class: 'swatch ' + k }), label)));
    return h('div', { class: 'chart-box' }, h('div', { class: 'scroll' }, svg), legend);
  }

  function fileBars(files) {
    const max = Math.max(1, ...files.map((f) => Number(f.edits) || 0));
    return h('ol', { class: 'bars', test: 'activity-files' }, files.map((f) => {
      const bar = h('span', { class: 'fill' });
      bar.style.width = Math.max(1, Math.round(((Number(f.edits) || 0) / max) * 100)) + '%';
      return h('li', null,
        h('code', { class: 'path', title: f.path }, f.path),
        h('span', { class: 'track' }, bar),
        h('span', { class: 'num' }, plural(f.edits || 0, 'edit'), ' · ', plural(f.sessions || 0, 'session')));
    }));
  }

  // ---- watch ---------------------------------------------------------------------

  async function renderWatch(g) {
    const box = h('section', { class: 'watch' });
    const panel = h('div', { test: 'watch-panel' });
    const btn = h('button', { type: 'button', class: 'primary', test: 'consolidate', on: { click: async () => {
      clearMessages();
      btn.disabled = true;
      try {
        await post('/api/consolidate', {});
        notice('Consolidation started.');
        await tick();
      } catch (err) {
        showError(err);
      } finally {
        btn.disabled = false;
      }
    } } }, 'Consolidate now');
    append(box, [
      h('h1', null, 'Watch'),
      h('p', { class: 'sub' }, 'Consolidation, extraction and the store check, read every second. ', btn),
      panel,
    ]);
    const tick = async () => {
      if (!current(g) || document.visibilityState !== 'visible') return;
      try {
        const st = await get('/api/status');
        if (!current(g)) return;
        clear(panel);
        panel.appendChild(watchPanel(st));
      } catch (err) {
        if (current(g)) showError(err);
      }
    };
    const st = await get('/api/status');
    panel.appendChild(watchPanel(st));
    if (current(g)) poller = setInterval(tick, 1000);
    return box;
  }

  function kv(label, value, test) {
    return h('div', { class: 'kv' }, h('dt', null, label), h('dd', { test }, value));
  }

  function watchPanel(st) {
    const c = st.consolidation || {};
    const run = c.last_run;
    const check = st.check || {};
    const staged = c.staged || {};
    const running = c.running;
    const state = running ? 'running' : (run ? (run.outcome === 'ok' ? 'done' : 'failed') : 'never');
    const runs = st.runs || [];
    return h('div', { class: 'panels' },
      h('div', { class: 'card', test: 'watch-consolidation', 'data-state': state },
        h('h2', null, 'Consolidation'),
        h('dl', null,
          kv('now', running
            ? h('span', { class: 'badge running' }, 'running', running.started_at ? ' since ' + when(running.started_at) : '', running.pid ? ' (pid ' + running.pid + ')' : '')
            : h('span', { class: 'badge' }, 'idle'), 'watch-running'),
          kv('staged', plural(staged.files || 0, 'entry', 'entries') + ', ' + (staged.bytes || 0) + ' bytes' + (c.due ? ' (due)' : ''), 'watch-staged'),
          kv('last run', run
            ? h('span', { 'data-run-id': run.run_id || '', 'data-outcome': run.outcome || '' },
              h('span', { class: 'badge ' + (run.outcome === 'ok' ? 'ok' : 'bad') }, run.outcome === 'ok' ? 'done' : 'failed'),
              ' ', when(run.finished_at || run.started_at), run.engine ? ' · ' + run.engine : '',
              run.changed ? ' · ' + plural(run.changed.length, 'file') + ' changed' : '',
              run.error ? h('div', { class: 'bad-text', test: 'watch-run-error' }, 'reason: ', typeof run.error === 'string' ? run.error : JSON.stringify(run.error)) : null)
            : 'never', 'watch-last-run'),
          c.stale_lock ? kv('lock', 'a stale run lock is left: lore check --repair', 'watch-stale') : null)),
      h('div', { class: 'card', test: 'watch-extract' },
        h('h2', null, 'Extraction'),
        h('dl', null,
          kv('last extract', c.last_extract
            ? [when(c.last_extract.at), ' · ', c.last_extract.outcome || '', ' · session ', h('code', null, c.last_extract.session_id || ''),
              c.last_extract.error ? h('div', { class: 'bad-text' }, 'reason: ', c.last_extract.error) : null]
            : 'never', 'watch-last-extract'),
          c.failed_extract
            ? kv('failed', [when(c.failed_extract.at), ' · ', c.failed_extract.error || ''], 'watch-failed-extract')
            : null)),
      h('div', { class: 'card', test: 'watch-check', 'data-ok': check.ok ? 'true' : 'false' },
        h('h2', null, 'Check'),
        h('p', null, check.ok ? h('span', { class: 'badge ok' }, 'ok') : h('span', { class: 'badge bad' }, 'problems')),
        (check.problems || []).length ? h('ul', { class: 'bad-text' }, check.problems.map((p) => h('li', null, String(p)))) : null,
        (check.warnings || []).length ? h('ul', { class: 'muted' }, check.warnings.map((p) => h('li', null, String(p)))) : null),
      runs.length
        ? h('div', { class: 'card wide', test: 'watch-runs' },
          h('h2', null, 'Recent runs'),
          h('table', null, h('tbody', null, runs.map((x) => h('tr', null,
            h('td', null, when(x.at)), h('td', null, x.kind || ''),
            h('td', null, h('span', { class: 'badge ' + (x.outcome === 'ok' || x.outcome === 'staged' ? 'ok' : '') }, x.outcome || '')),
            h('td', { class: 'muted' }, x.session_id || ''), h('td', { class: 'bad-text' }, x.error || ''))))))
        : null);
  }

  // ---- start -----------------------------------------------------------------------

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && parseHash().name === 'watch') route(true);
  });
  window.addEventListener('hashchange', () => route());
  if (!token) showError('this page needs the address lore serve printed, with its ?t= token');
  get('/api/overview').then((o) => { document.getElementById('repo').textContent = o.repo || ''; }).catch(() => {});
  route(!token);
})();
