/**
 * The contact sheet's index.html: one self-contained page (its styles inline, no script) showing
 * every shot, grouped by screen, then by width and theme, each image with its alt text and caption
 * and linked to its full size. Pure: the caller writes the file.
 */
import type { Shot } from './plan.ts';

/** A shot as taken: the image's size, or why it could not be taken. */
export type ShotResult = { shot: Shot; width: number; height: number } | { shot: Shot; error: string };

export interface SheetFacts {
  /** When the shots were taken (ISO 8601). */
  date: string;
  /** The commit checked out, if known. */
  commit: string | null;
  seconds: number;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
/** A language's name in English, with its tag: "Simplified Chinese (zh-Hans)". */
export const languageLabel = (tag: string): string => `${languageNames.of(tag) ?? tag} (${tag})`;

const widthLabel = (shot: Shot) => `${shot.viewport.id} ${shot.viewport.width}×${shot.viewport.height}`;

/** What the image shows, for someone who cannot see it. */
export function altText(shot: Shot): string {
  return `${shot.screen.title} screen (${shot.screen.path}, ${shot.screen.state}) on a ${widthLabel(shot)} viewport, ${shot.theme.mode} theme, in ${languageLabel(shot.language)}`;
}

/** The caption under the image: screen, width, theme, language. */
export function caption(shot: Shot): string {
  return `${shot.screen.title} · ${shot.viewport.width} px · ${shot.theme.mode} · ${languageLabel(shot.language)}`;
}

function figure(result: ShotResult): string {
  const { shot } = result;
  if ('error' in result) {
    return `<li class="failed"><figure><p>Not taken: ${escapeHtml(result.error)}</p><figcaption>${escapeHtml(caption(shot))}</figcaption></figure></li>`;
  }
  const file = escapeHtml(encodeURI(shot.file));
  return [
    `<li><figure><a href="${file}">`,
    `<img src="${file}" alt="${escapeHtml(altText(shot))}" width="${result.width}" height="${result.height}" loading="lazy" decoding="async">`,
    `</a><figcaption>${escapeHtml(caption(shot))}</figcaption></figure></li>`,
  ].join('');
}

/** Consecutive results that share a key, in their order. */
function groups<T>(items: readonly T[], key: (item: T) => string): Array<[string, T[]]> {
  const out: Array<[string, T[]]> = [];
  for (const item of items) {
    const k = key(item);
    const last = out.at(-1);
    if (last && last[0] === k) last[1].push(item);
    else out.push([k, [item]]);
  }
  return out;
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
body { margin: 0 auto; padding: 1rem; max-width: 110rem; }
.skip { position: absolute; left: -100vw; }
.skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; }
a:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
section { border-top: 1px solid GrayText; margin-top: 2rem; }
ul.shots { display: grid; gap: 1rem; padding: 0; list-style: none; align-items: start; }
ul.phone { grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); }
ul.desktop { grid-template-columns: repeat(auto-fill, minmax(22rem, 1fr)); }
figure { margin: 0; }
img { display: block; width: 100%; height: auto; border: 1px solid GrayText; }
figcaption { font-size: .875rem; margin-top: .25rem; }
.failed p { border: 2px dashed; padding: 1rem; margin: 0; }
`;

/** The whole page. */
export function sheetHtml(results: readonly ShotResult[], facts: SheetFacts): string {
  const taken = results.filter((r) => !('error' in r)).length;
  const screens = groups(results, (r) => r.shot.screen.id);
  const nav = screens
    .map(([id, rs]) => `<li><a href="#${escapeHtml(id)}">${escapeHtml(rs[0]!.shot.screen.title)}</a> (${rs.length})</li>`)
    .join('\n');
  const sections = screens.map(([id, rs]) => {
    const { screen } = rs[0]!.shot;
    const parts = groups(rs, (r) => `${r.shot.viewport.id} ${r.shot.theme.mode}`).map(([, part]) => {
      const { shot } = part[0]!;
      return [
        `<h3>${escapeHtml(`${screen.title}: ${widthLabel(shot)}, ${shot.theme.mode} theme (${shot.theme.name})`)}</h3>`,
        `<ul class="shots ${shot.viewport.id}">`,
        ...part.map(figure),
        '</ul>',
      ].join('\n');
    });
    return [
      `<section id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">`,
      `<h2 id="${escapeHtml(id)}-title">${escapeHtml(screen.title)}</h2>`,
      `<p><code>${escapeHtml(screen.path)}</code>, ${escapeHtml(screen.state)}</p>`,
      ...parts,
      '</section>',
    ].join('\n');
  });
  const failed = results.length - taken;
  const summary = [
    `${taken} shot${taken === 1 ? '' : 's'}`,
    failed > 0 ? `, ${failed} not taken` : '',
    `, taken ${facts.date}`,
    facts.commit ? ` at commit ${facts.commit}` : '',
    ` in ${Math.round(facts.seconds)} s.`,
  ].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Circle: contact sheet</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the shots</a>
<header>
<h1>Circle: contact sheet</h1>
<p>${escapeHtml(summary)} Each image opens at full size; phone shots are 390 px wide, desktop shots 1280 px, each the whole page. <a href="overview.webp">At a glance</a>: every screen's first screenful in one image.</p>
<nav aria-label="Screens"><ul>
${nav}
</ul></nav>
</header>
<main id="main">
${sections.join('\n')}
</main>
</body>
</html>
`;
}
