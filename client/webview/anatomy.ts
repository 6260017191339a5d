// The prompt anatomy webview's script: draws what the extension sends (messages.ts) and asks it to
// open what a block names. The prompt as a bar of blocks sized by tokens and coloured by tier (each
// a button: Tab and the arrow keys move, Enter or a click opens its file), the selected block's
// details, every block's figures, and the session's cache timeline beside them. No prompt text
// reaches it: only sizes, labels and paths.
// Types only from the protocol: its values would bring the LSP library into the page.
import type { PromptMapDto, PromptPartDto, SessionDto } from '../../shared/protocol';
import { blockCaption, cacheTimeline, formatShare, kindName, partAriaLabel, reasonText, skillCostText, toolsCaption, toolsetsTitle } from '../anatomy/anatomyText';
import { otherBuildLine } from '../../shared/otherBuild';
import { parseHostMessage, type HostMessage, type ViewMessage } from '../anatomy/messages';
import { longestShared, sharedPrefixText, type SharedPrefix } from '../anatomy/sharedPrefix';
import { formatBytes, formatClock, formatInt } from '../format';
import { STATE_ICONS } from '../sessionsModel';

declare function acquireVsCodeApi(): { postMessage(message: ViewMessage): void };

type Show = Extract<HostMessage, { type: 'show' }>;

const host = acquireVsCodeApi();
const root = document.getElementById('root')!;
let shown: Show | undefined;
let selected = 0;
let timelineTimer: ReturnType<typeof setTimeout> | undefined;

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'error') {
    shown = undefined;
    root.replaceChildren(el('p', { class: 'error', role: 'alert' }, message.message));
    root.removeAttribute('aria-busy');
    return;
  }
  const focused = focusedBlock();
  const sameSession = shown?.map.sessionId === message.map.sessionId && shown.map.profile === message.map.profile;
  shown = message;
  selected = message.select ?? (sameSession ? Math.min(selected, message.map.parts.length - 1) : 0);
  render(message);
  // The view is drawn again when the session changes: keep the keyboard where it was.
  if (focused !== undefined && sameSession) blockButtons()[Math.min(focused, message.map.parts.length - 1)]?.focus();
});
host.postMessage({ type: 'ready' });

function render(m: Show): void {
  root.replaceChildren(header(m), el('div', { class: 'layout' }, promptSection(m), cacheSection(m.session)), figures(m.map));
  root.removeAttribute('aria-busy');
}

function header(m: Show): HTMLElement {
  const current = m.choices.find((c) => c.id === m.map.sessionId);
  const name = current?.label ?? m.session?.title ?? m.map.sessionId;
  const which = m.chosen === 'newest' ? `The newest live session of profile ${m.map.profile}` : `A session of profile ${m.map.profile}`;
  const picker = el('select', { id: 'session', 'aria-label': 'Session' }, ...m.choices.map((c) => el('option', { value: c.id }, `${c.label} — ${c.description}`)));
  (picker as HTMLSelectElement).value = m.map.sessionId;
  picker.addEventListener('change', () => host.postMessage({ type: 'pick', sessionId: (picker as HTMLSelectElement).value }));
  return el(
    'header',
    {},
    el('h1', {}, `Prompt anatomy: ${name}`),
    el('p', { class: 'which' }, `${which} · ${m.map.sessionId}`),
    m.choices.length > 1 ? el('label', { class: 'picker' }, 'Show another session: ', picker) : el('span', {}),
  );
}

function promptSection(m: Show): HTMLElement {
  const { map } = m;
  const about = map.tokensExact ? '' : '≈ ';
  return el(
    'section',
    { class: 'prompt', 'aria-labelledby': 'prompt-heading' },
    el('h2', { id: 'prompt-heading' }, `System prompt: ${about}${formatInt(map.tokens)} tokens · ${formatBytes(map.bytes)}`),
    ...(map.tools ? [el('p', { class: 'tools-line' }, toolsCaption(map.tools, map.tokensExact))] : []),
    ...(m.sharingKnown ? [sharedBar(map, m.shared ?? null)] : []),
    tierBar(map),
    blockBar(map),
    el('div', { class: 'details', 'aria-live': 'polite' }, ...details(map, map.parts[selected])),
    ...unplaced(map),
  );
}

/** The part of the prompt other sessions share (to the end of the stable tier, or the whole prompt), marked above the tiers. */
function sharedBar(map: PromptMapDto, shared: SharedPrefix | null): HTMLElement {
  const text = el('p', { class: 'shared-text' }, sharedPrefixText(shared));
  const longest = longestShared(shared);
  if (!longest || longest.breakpoint === 'tools') return el('div', { class: 'shared' }, text);
  const upTo = longest.breakpoint === 'system' ? map.tokens : (map.tiers.find((t) => t.name === 'stable')?.tokens ?? 0);
  const bar = el('div', { class: 'sharedbar', 'aria-hidden': 'true' });
  const part = el('div', { class: 'part shared-part' });
  part.style.flexGrow = String(Math.max(upTo, 1));
  const rest = el('div', { class: 'part own-part' });
  rest.style.flexGrow = String(Math.max(map.tokens - upTo, 0));
  bar.append(part, rest);
  return el('div', { class: 'shared' }, bar, text);
}

function tierBar(map: PromptMapDto): HTMLElement {
  const legend = el('ul', { class: 'tiers' });
  const bar = el('div', { class: 'tierbar', 'aria-hidden': 'true' });
  for (const t of map.tiers) {
    const segment = el('div', { class: `tier tier-${t.name}` });
    segment.style.flexGrow = String(t.tokens);
    bar.append(segment);
    legend.append(el('li', {}, el('span', { class: `swatch tier-${t.name}` }), `${t.name} tier · ${formatInt(t.tokens)} tokens · ${formatShare(t.shareTenths)}`));
  }
  return el('div', {}, bar, legend);
}

function blockBar(map: PromptMapDto): HTMLElement {
  const bar = el('div', { class: 'bar', role: 'group', 'aria-label': 'Blocks of the system prompt, sized by tokens. Arrow keys move between them; Enter opens the file a block comes from.' });
  // The cached prefix starts with the tool schemas: drawn first, to scale, its toolsets on hover (it opens no file).
  if (map.tools) {
    const caption = toolsCaption(map.tools, map.tokensExact);
    const tools = el('div', { class: 'toolblock', role: 'note', tabindex: '0', 'aria-label': `${caption}. ${toolsetsTitle(map.tools)}`, title: `${caption}\n\n${toolsetsTitle(map.tools)}` }, el('span', { class: 'name' }, 'Tool schemas'));
    tools.style.flexGrow = String(Math.max(map.tools.tokens, 1));
    bar.append(tools);
  }
  map.parts.forEach((p, i) => {
    const label = partAriaLabel(p, map.tokensExact);
    const classes = ['block', `tier-${p.tier}`, `origin-${p.origin}`, p.stale.length ? 'stale' : '', i === selected ? 'selected' : ''].filter(Boolean).join(' ');
    const button = el('button', { type: 'button', class: classes, 'aria-label': label, title: label, 'data-index': String(i) }, el('span', { class: 'name' }, p.stale.length ? `⚠ ${blockCaption(p)}` : blockCaption(p)));
    button.style.flexGrow = String(Math.max(p.tokens, 1));
    button.addEventListener('click', () => host.postMessage({ type: 'open', part: i, entry: null }));
    // Focus (Tab, an arrow key, a click) selects; a mouse passing over shows the same words as a tooltip.
    button.addEventListener('focus', () => select(i));
    bar.append(button);
  });
  bar.addEventListener('keydown', (e: KeyboardEvent) => {
    const buttons = blockButtons();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, next))]!.focus();
  });
  return bar;
}

function select(i: number): void {
  if (!shown || i === selected) return;
  selected = i;
  for (const b of blockButtons()) b.classList.toggle('selected', Number(b.dataset.index) === i);
  root.querySelector('.details')?.replaceChildren(...details(shown.map, shown.map.parts[i]));
}

function details(map: PromptMapDto, p: PromptPartDto | undefined): HTMLElement[] {
  if (!p) return [el('p', { class: 'muted' }, 'This prompt has no blocks.')];
  const i = map.parts.indexOf(p);
  const where =
    p.origin === 'hermes'
      ? "Hermes' own text: it opens in the stored prompt."
      : p.origin === 'folder'
        ? `${p.path} (pick a skill below to open its SKILL.md)`
        : `${p.path ?? p.label}${p.line !== null ? `, line ${p.line + 1}` : ''}`;
  const out: HTMLElement[] = [
    el('h3', {}, `${kindName(p.kind)} · ${p.label}`),
    el('p', {}, `${p.tier} tier · ${map.tokensExact ? '' : '≈ '}${formatInt(p.tokens)} tokens · ${formatBytes(p.bytes)} · ${formatShare(p.shareTenths)} of the prompt`),
    el('p', { class: 'path' }, where),
  ];
  if (p.stale.length) out.push(el('ul', { class: 'reasons' }, ...p.stale.map((r) => el('li', {}, `⚠ Stale: ${reasonText(r)}`))));
  if (p.entries.length) {
    const entries = el('ul', { class: 'entries', 'aria-label': `Skills in the index (${p.entries.length})` });
    p.entries.forEach((e, j) => {
      const stale = e.stale ? `, stale: ${reasonText(e.stale)}` : '';
      const cost = skillCostText(e);
      const button = el(
        'button',
        { type: 'button', class: e.stale ? 'entry stale' : 'entry', title: cost, 'aria-label': `Skill ${e.name}, ${e.category}${e.path ? ', opens SKILL.md' : ', no SKILL.md'}, ${cost}${stale}` },
        e.stale ? `⚠ ${e.name}` : e.name,
        el('span', { class: 'muted' }, ` ${e.category}`),
      );
      button.addEventListener('click', () => host.postMessage({ type: 'open', part: i, entry: j }));
      entries.append(el('li', {}, button));
    });
    out.push(entries);
  }
  return out;
}

function unplaced(map: PromptMapDto): HTMLElement[] {
  if (map.unplaced.length === 0) return [];
  return [el('div', { class: 'unplaced' }, el('h3', {}, 'Not in this prompt yet'), el('ul', { class: 'reasons' }, ...map.unplaced.map((r) => el('li', {}, `⚠ ${reasonText(r)}`))))];
}

function figures(map: PromptMapDto): HTMLElement {
  const head = el('tr', {}, ...['Block', 'From', 'Tier', 'Tokens', 'Bytes', 'Share', 'Stale because of'].map((h) => el('th', { scope: 'col' }, h)));
  // The tool schemas come first in every request: a row of their own, outside the prompt's shares.
  const tools = map.tools
    ? [el('tr', { class: 'tools' }, el('td', {}, el('span', { class: 'swatch toolswatch' }), 'Tool schemas'), el('td', {}, `${map.tools.count} tools (${map.tools.buildTitle})`), el('td', {}, 'before the prompt'), el('td', { class: 'num' }, formatInt(map.tools.tokens)), el('td', { class: 'num' }, formatBytes(map.tools.bytes)), el('td', { class: 'num' }, '—'), el('td', {}, ''))]
    : [];
  const rows = map.parts.map((p) =>
    el(
      'tr',
      { class: p.stale.length ? 'stale' : '' },
      el('td', {}, el('span', { class: `swatch tier-${p.tier} origin-${p.origin}` }), kindName(p.kind)),
      el('td', {}, p.label),
      el('td', {}, p.tier),
      el('td', { class: 'num' }, formatInt(p.tokens)),
      el('td', { class: 'num' }, formatBytes(p.bytes)),
      el('td', { class: 'num' }, formatShare(p.shareTenths)),
      el('td', {}, p.stale.map(reasonText).join('; ')),
    ),
  );
  return el('table', { class: 'figures' }, el('caption', {}, 'Every block of the prompt, after the tool schemas'), el('thead', {}, head), el('tbody', {}, ...tools, ...rows));
}

function cacheSection(session: SessionDto | null): HTMLElement {
  if (timelineTimer !== undefined) clearTimeout(timelineTimer);
  timelineTimer = undefined;
  const aside = el('aside', { class: 'cache', 'aria-labelledby': 'cache-heading' }, el('h2', { id: 'cache-heading' }, 'Prompt cache'));
  if (!session) {
    aside.append(el('p', { class: 'muted' }, 'This session is not in the session list any more.'));
    return aside;
  }
  const now = Date.now() / 1000;
  const timeline = cacheTimeline(session, now);
  aside.append(el('p', { class: `state state-${session.state}` }, stateLine(session)));
  const otherBuild = otherBuildLine(session.otherBuild);
  if (otherBuild) aside.append(el('p', { class: 'other-build' }, otherBuild));
  if (timeline.lifetime) {
    // The cache's lifetime as a line from the last activity to the expiry, filled up to now (the rows below say it in words).
    const fill = el('div', { class: 'fill' });
    fill.style.width = `${Math.round(timeline.lifetime.elapsed * 100)}%`;
    aside.append(el('div', { class: 'lifetime', 'aria-hidden': 'true' }, el('span', {}, formatClock(timeline.lifetime.from)), el('div', { class: 'meter' }, fill), el('span', {}, formatClock(timeline.lifetime.to))));
  }
  aside.append(el('dl', {}, ...timeline.rows.flatMap((r) => [el('dt', {}, r.term), el('dd', {}, r.value)])));
  // When the cache expires the timeline says so: draw it again then.
  if (timeline.changesAt !== undefined) {
    timelineTimer = setTimeout(() => aside.replaceWith(cacheSection(shown?.session ?? session)), Math.max(0, (timeline.changesAt - now) * 1000) + 250);
  }
  return aside;
}

function stateLine(s: SessionDto): string {
  return s.state === 'stale' ? `${STATE_ICONS.stale.label} (${s.reasons.map(reasonText).join('; ')})` : STATE_ICONS[s.state].label;
}

function blockButtons(): HTMLButtonElement[] {
  return [...root.querySelectorAll<HTMLButtonElement>('.bar .block')];
}

function focusedBlock(): number | undefined {
  const at = blockButtons().indexOf(document.activeElement as HTMLButtonElement);
  return at < 0 ? undefined : at;
}

function el(tag: string, attrs: Record<string, string>, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== '') node.setAttribute(k, v);
  node.append(...children);
  return node;
}
