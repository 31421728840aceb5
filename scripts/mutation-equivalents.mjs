// The list of equivalent mutants (mutation-equivalents/*.json) and its match against a Stryker report.
// An entry names a mutant by what does not move when lines are added above it: the file, the
// mutator, the replacement, and a piece of the code it replaces (or of its line, around it). Its
// line is a hint for readers.

const FIELDS = ['file', 'mutator', 'code', 'replacement', 'reason'];
const MIN_REASON = 15;

/** Whitespace runs count as one space, so a re-indented line still matches. */
const squash = (text) => text.replace(/\s+/g, ' ').trim();

/**
 * Parses the list files ({ name, text }[]). Each holds { "equivalents": Entry[] }; a bad file or entry
 * is an error naming the file and the entry's index, never a crash.
 */
export function loadEquivalents(listFiles) {
  const entries = [];
  const errors = [];
  for (const { name, text } of listFiles) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      errors.push(`${name}: not JSON (${error.message})`);
      continue;
    }
    if (!Array.isArray(parsed?.equivalents)) {
      errors.push(`${name}: expected an object with an "equivalents" array`);
      continue;
    }
    parsed.equivalents.forEach((entry, index) => {
      const where = `${name} equivalents[${index}]`;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        errors.push(`${where}: expected an object`);
        return;
      }
      const missing = FIELDS.filter((field) => typeof entry[field] !== 'string');
      if (missing.length) {
        errors.push(`${where}: needs a string ${missing.map((f) => `"${f}"`).join(', ')}`);
        return;
      }
      if (!squash(entry.code)) errors.push(`${where}: "code" is empty; name a piece of the code the mutant replaces`);
      else if (squash(entry.reason).length < MIN_REASON) errors.push(`${where}: "reason" must say why no test can observe the change`);
      else if (entry.line !== undefined && !Number.isInteger(entry.line)) errors.push(`${where}: "line" must be a whole number`);
      else entries.push({ ...entry, source: where });
    });
  }
  return { entries, errors };
}

/** The code a mutant replaces, from its file's source and its 1-based line, 0-based column range. */
function originalOf(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

/** The whole lines a mutant spans: the context an entry may quote around a short original. */
function linesOf(source, { start, end }) {
  return source
    .split('\n')
    .slice(start.line - 1, end.line)
    .join('\n');
}

/**
 * `code` is either a piece of the original, or a piece of its lines that holds the whole original
 * (so `replaceState(state, ''` can single out one `''`).
 */
function codeMatches(code, original, lines) {
  const piece = squash(code);
  const replaced = squash(original);
  return replaced.includes(piece) || (piece.includes(replaced) && squash(lines).includes(piece));
}

const matches = (entry, file, mutant, source, original) =>
  entry.file === file &&
  entry.mutator === mutant.mutatorName &&
  squash(entry.replacement) === squash(mutant.replacement ?? '') &&
  codeMatches(entry.code, original, linesOf(source, mutant.location));

/**
 * Sorts the report's survivors (Survived, NoCoverage) of the files given into those a listed entry
 * explains and those it does not; `stale` are the entries for those files that match no survivor.
 */
export function explainSurvivors(files, entries) {
  const explained = [];
  const unexplained = [];
  const used = new Set();
  for (const [file, { source, mutants }] of Object.entries(files)) {
    for (const mutant of mutants) {
      if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
      const original = originalOf(source, mutant.location);
      const survivor = {
        file,
        line: mutant.location.start.line,
        column: mutant.location.start.column,
        status: mutant.status,
        mutator: mutant.mutatorName,
        original: squash(original).slice(0, 120),
        replacement: squash(mutant.replacement ?? '').slice(0, 60),
      };
      const entry = entries.find((e) => matches(e, file, mutant, source, original));
      if (entry) {
        used.add(entry);
        explained.push({ ...survivor, reason: entry.reason });
      } else unexplained.push(survivor);
    }
  }
  const stale = entries.filter((entry) => entry.file in files && !used.has(entry));
  return { explained, unexplained, stale };
}
