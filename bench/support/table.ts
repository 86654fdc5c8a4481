import type { ResultRow } from './result-row.js';

function amount(value: number, unit: string): string {
  if (unit === 'events/s') return `${(value / 1e6).toFixed(2)} M events/s`;
  if (unit === 'tasks/s') return `${Math.round(value).toLocaleString('en')} tasks/s`;
  if (unit === 'requests') return `${value}`;
  if (unit === 'calls') return `${value.toFixed(2)} calls`;
  if (unit === 'B/task') return `${value.toFixed(1)} B/task`;
  if (unit === 'ms' && value < 1) return `${value.toFixed(3)} ms`;
  return `${value.toFixed(1)} ${unit}`;
}

function verdict(row: ResultRow): string {
  if (row.pass === undefined) return 'info';
  return row.pass ? 'ok' : 'MISSED';
}

/** The rows as one Markdown table (readable in a terminal, pasteable into the docs). */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = ['benchmark', 'metric', 'rxharness', 'baseline', 'ratio', 'target', 'verdict'];
  const lines = rows.map((r) => [
    r.benchmark,
    r.metric,
    amount(r.rxharness, r.unit),
    r.baseline === undefined ? '-' : amount(r.baseline, r.unit),
    r.ratio === undefined ? '-' : `${r.ratio.toFixed(3)}x`,
    r.target ?? '-',
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}
