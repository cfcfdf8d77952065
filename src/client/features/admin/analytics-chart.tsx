import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { AdminTable, type Column } from "./admin-table.tsx";

/**
 * A chart of the dashboard (docs/decisions/0030): a title, a sentence on its trend, the chart itself
 * (an image to assistive technology, named by that sentence), and the same data as a table a keyboard
 * or screen-reader user opens below it, with its CSV.
 */

/** Series colours: each at least 3:1 against white, and each series also has its own dash pattern. */
export const SERIES = [
  { color: "#0f766e", dash: undefined, pattern: "solid line" },
  { color: "#1d4ed8", dash: "8 4", pattern: "dashed line" },
  { color: "#b45309", dash: "2 3", pattern: "dotted line" },
] as const;

export interface Series<Row> {
  key: keyof Row & string;
  label: string;
}

interface ChartFigureProps<Row> {
  id: string;
  title: string;
  summary: string;
  chart: ReactNode;
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  csvUrl: string;
}

export function ChartFigure<Row>({
  id,
  title,
  summary,
  chart,
  caption,
  columns,
  rows,
  rowKey,
  csvUrl,
}: ChartFigureProps<Row>) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-line bg-surface p-4">
      <h3 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h3>
      <p id={`${id}-summary`} className="mt-1 text-sm text-muted">
        {summary}
      </p>
      <div role="img" aria-label={`${title}: ${summary} The data follows as a table.`} className="mt-3 h-64 w-full">
        {chart}
      </div>
      <details className="mt-3" data-testid={`${id}-data`}>
        <summary className="cursor-pointer text-sm font-medium text-brand-700 underline">
          Show the data of “{title}” as a table
        </summary>
        <div className="mt-2">
          <AdminTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} empty="No data in this period." />
        </div>
      </details>
      <a className="mt-2 inline-block text-sm text-brand-700 underline" href={csvUrl} download>
        Download CSV: {title}
      </a>
    </section>
  );
}

const shortDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export function TimeChart<Row extends { date: string }>({
  rows,
  series,
  format,
}: {
  rows: Row[];
  series: Series<Row>[];
  format: (value: number) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e2e8f0" />
        <XAxis dataKey="date" tickFormatter={shortDate} stroke="#475569" minTickGap={24} />
        <YAxis tickFormatter={(v: number) => format(v)} stroke="#475569" width={72} />
        <Tooltip
          formatter={(v) => format(Number(v))}
          labelFormatter={(l) => shortDate(String(l))}
          isAnimationActive={false}
        />
        <Legend iconType="plainline" />
        {series.map((s, i) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={SERIES[i % SERIES.length]!.color}
            strokeDasharray={SERIES[i % SERIES.length]!.dash}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

export function HorizontalBars({ rows }: { rows: { label: string; count: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={rows}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
      >
        <CartesianGrid stroke="#e2e8f0" horizontal={false} />
        <XAxis type="number" allowDecimals={false} stroke="#475569" />
        <YAxis type="category" dataKey="label" width={160} stroke="#475569" tick={{ fontSize: 12 }} />
        <Tooltip isAnimationActive={false} />
        <Bar dataKey="count" fill={SERIES[0].color} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** A sentence on a series' trend: its total, its peak, and the second half against the first. */
export function trendSentence(label: string, values: { date: string; value: number }[], format: (v: number) => string) {
  if (values.length === 0) return `${label}: no data in this period.`;
  const total = values.reduce((s, v) => s + v.value, 0);
  if (values.every((v) => v.value === 0)) return `${label}: none in this period.`;
  const peak = values.reduce((best, v) => (v.value > best.value ? v : best), values[0]!);
  const half = Math.floor(values.length / 2);
  const first = values.slice(0, half).reduce((s, v) => s + v.value, 0);
  const second = values.slice(half).reduce((s, v) => s + v.value, 0);
  const direction = second > first ? "rising" : second < first ? "falling" : "level";
  return `${label}: ${format(total)} in total, highest ${format(peak.value)} on ${shortDate(peak.date)}; ${direction} (${format(second)} in the second half of the period against ${format(first)} in the first).`;
}
