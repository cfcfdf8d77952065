import { type ReactNode, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";

export interface Column<Row> {
  /** The column's header, and the value's label on a phone's card. */
  header: string;
  /** Header for screen readers only, and no label on the card (a column of buttons). */
  hideHeader?: boolean;
  cell: (row: Row) => ReactNode;
  className?: string;
}

interface TableProps<Row> {
  /** Names the table and its scroll region. */
  caption: string;
  columns: Column<Row>[];
  /** Undefined while loading. */
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  rowTestId?: (row: Row) => string;
  empty: string;
}

// Below md each row is a card of labelled values (the label is the cell's ::before), so nothing is
// wider than the phone; from md on it is a table that scrolls inside its own focusable region.
const table = "w-full border-collapse text-left text-sm max-md:block";
const row = "max-md:mb-3 max-md:block max-md:rounded-xl max-md:border max-md:border-line max-md:bg-surface max-md:p-3";
const cell =
  "border-b border-line px-3 py-2 align-top wrap-break-word max-md:block max-md:border-0 max-md:px-0 max-md:py-1 max-md:wrap-anywhere";
const label =
  "max-md:before:block max-md:before:text-xs max-md:before:font-semibold max-md:before:font-sans max-md:before:text-muted max-md:before:content-[attr(data-label)]";

export function AdminTable<Row>({ caption, columns, rows, rowKey, rowTestId, empty }: TableProps<Row>) {
  if (!rows) return <Skeleton className="h-40" />;
  if (rows.length === 0) return <p className="py-6 text-sm text-muted">{empty}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it.
    <section aria-label={caption} tabIndex={0} className="md:overflow-x-auto">
      <table className={table}>
        <caption className="sr-only">{caption}</caption>
        <thead className="max-md:sr-only">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className="border-b border-line px-3 py-2 font-semibold text-slate-700">
                {c.hideHeader ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:block">
          {rows.map((r) => (
            <tr key={rowKey(r)} data-testid={rowTestId?.(r)} className={row}>
              {columns.map((c) => (
                <td
                  key={c.header}
                  data-label={c.hideHeader ? undefined : c.header}
                  className={`${cell} ${c.hideHeader ? "" : label} ${c.className ?? ""}`}
                >
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A search box's text and the page of results it shows; a new search starts at page 1. */
export function useAdminSearch() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  return {
    q,
    page,
    setPage,
    search: (text: string) => {
      setQ(text);
      setPage(1);
    },
  };
}

interface Paged<Row> {
  items: Row[];
  page: number;
  pageSize: number;
  total: number;
}

/** A paged admin list: its search box, the table and the pager. */
export function SearchableAdminTable<Row>({
  searchLabel,
  search,
  data,
  ...table
}: Omit<TableProps<Row>, "rows"> & {
  searchLabel: string;
  search: ReturnType<typeof useAdminSearch>;
  data: Paged<Row> | undefined;
}) {
  return (
    <>
      <TextField
        label={searchLabel}
        type="search"
        value={search.q}
        onChange={(e) => search.search(e.target.value)}
        className="max-w-md"
      />
      <div className="mt-4">
        <AdminTable {...table} rows={data?.items} />
      </div>
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={search.setPage} />}
    </>
  );
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-muted">
        {total} result{total === 1 ? "" : "s"} · page {page} of {pages}
      </span>
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous page
        </Button>
        <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </Button>
      </div>
    </div>
  );
}
