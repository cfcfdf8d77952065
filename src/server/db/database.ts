import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type QueryCompiler,
  SqliteDialect,
  SqliteDriver,
  type UnknownRow,
} from "kysely";
import pg from "pg";
import { reportOncePerOutage } from "../outage-log.ts";
import { columnShapesPlugin, PostgresShapesCompiler, SqliteShapesCompiler } from "./column-shapes.ts";
import { enableGroupCommit } from "./group-commit.ts";
import { registerDirectReads } from "./prepared.ts";
import type { DB } from "./schema.ts";

export type Engine = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** The DATABASE_URL it was opened with, and (PostgreSQL, tests) the schema every statement runs in. */
  url: string;
  schema?: string;
  /** Counts statements sent to the engine; used by benchmarks and query-count tests. */
  queryCount: () => number;
  /** How long the oldest request waiting for a connection has waited, in ms (PostgreSQL's pool; 0 on SQLite). */
  oldestWaitMs: () => number;
  close: () => Promise<void>;
}

// int8 (counts, epoch milliseconds) as JS numbers; all of ours fit in 2^53.
pg.types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));
// timestamptz keeps microseconds; a Date keeps milliseconds. Rounded up, not cut off, so an instant is
// never read as earlier than it is (a renewal window opening, an expiry: decision 0051).
const parseTimestamptz = pg.types.getTypeParser(1184);
pg.types.setTypeParser(1184, (v: string) => {
  const date = parseTimestamptz(v) as Date;
  return /\.\d{3}0*[1-9]/.test(v) ? new Date(date.getTime() + 1) : date;
});

/** SQLite transactions that read then write must take the write lock up front. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly cfg: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(cfg);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.cfg);
  }
  override createQueryCompiler(): QueryCompiler {
    return new SqliteShapesCompiler();
  }
}
/** What a request gets when every connection stayed busy until its wait ran out: overload, not an outage. */
export const POOL_EXHAUSTED = "POOL_EXHAUSTED";

/**
 * pg's pool, also keeping when each caller began waiting for a connection: the overload check reads
 * how long the oldest has waited, and a wait that ran out while every connection was busy (the database
 * up, the pool saturated) is marked `POOL_EXHAUSTED` instead of looking like a lost database.
 */
class MeasuredPool extends pg.Pool {
  private readonly waitingSince = new Set<{ at: number }>();

  oldestWaitMs(): number {
    for (const wait of this.waitingSince) return Date.now() - wait.at;
    return 0;
  }

  // pg's own query() calls connect with a callback, Kysely without one.
  // biome-ignore lint/suspicious/noExplicitAny: pg.Pool's overloads of connect
  override connect(callback?: any): any {
    const wait = { at: Date.now() };
    const full = this.totalCount >= (this.options.max ?? 10) && this.idleCount === 0;
    this.waitingSince.add(wait);
    const mark = (error: Error | undefined) => {
      this.waitingSince.delete(wait);
      if (error && full && /timeout exceeded when trying to connect/i.test(error.message)) {
        Object.assign(error, { code: POOL_EXHAUSTED });
      }
      return error;
    };
    if (callback) {
      return super.connect((error, client, release) => callback(mark(error), client, release));
    }
    return super.connect().then(
      (client) => {
        mark(undefined);
        return client;
      },
      (error: Error) => {
        throw mark(error);
      },
    );
  }
}

class ShapesPostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PostgresShapesCompiler();
  }
}

/**
 * Kysely prepares every statement anew; better-sqlite3 statements can be reused, and preparing is
 * a large share of a small query's cost. Kysely runs one statement at a time on this connection.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement<unknown[], UnknownRow>>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        if (cache.size >= 1000) cache.clear();
        statement = sqlite.prepare<unknown[], UnknownRow>(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

export interface OpenOptions {
  /** PostgreSQL only: run every statement in this schema (tests give each file its own). */
  schema?: string;
  poolSize?: number;
  /** PostgreSQL only: the server cancels any statement running longer (0: no limit). */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL only: false answers a commit before its WAL record reaches the disk (tests, whose
   * databases are thrown away; a crash could lose the last commits, never corrupt). Default true.
   */
  durableCommits?: boolean;
  /** Where connection trouble outside any query (a restart, a terminated backend) is told; by default JSON lines on stderr. */
  log?: ConnectionLog;
}

interface ConnectionLog {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

const jsonLines: ConnectionLog = {
  error: (obj, msg) => console.error(jsonLine(50, obj, msg)),
  info: (obj, msg) => console.error(jsonLine(30, obj, msg)),
};

function jsonLine(level: number, { err, ...rest }: { err?: unknown }, msg: string) {
  const error = err as { code?: string; message?: string } | undefined;
  return JSON.stringify({ level, time: Date.now(), msg, ...rest, code: error?.code, err: error?.message });
}

export function sqliteFileFromUrl(url: string): string {
  return resolve(url.replace(/^sqlite:/, ""));
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  let count = 0;
  const log = () => {
    count++;
  };
  if (url.startsWith("sqlite:")) {
    const file = sqliteFileFromUrl(url);
    mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    const statements = withStatementCache(sqlite);
    const db = new Kysely<DB>({
      dialect: new ImmediateSqliteDialect({ database: statements }),
      plugins: [columnShapesPlugin],
      log,
    });
    enableGroupCommit(db);
    registerDirectReads(db, {
      read: (sql, parameters) => {
        // Inside an open transaction (a group commit in progress) reads queue behind it in Kysely.
        if (sqlite.inTransaction) return undefined;
        count++;
        return statements.prepare(sql).all(parameters as unknown[]);
      },
    });
    return { db, engine: "sqlite", url, queryCount: () => count, oldestWaitMs: () => 0, close: () => db.destroy() };
  }
  const settings = [`-c statement_timeout=${options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS}`];
  if (options.schema) settings.push(`-c search_path=${options.schema}`);
  if (options.durableCommits === false) settings.push("-c synchronous_commit=off");
  const pool = new MeasuredPool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: settings.join(" "),
    // During an outage a request waits this long for a connection, then gets a 503 (plugins/errors.ts).
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  // A connection that dies (restart, pg_terminate_backend) emits 'error' on the client itself, and an
  // idle one on the pool as well. Unhandled, either would end the process; the query in flight fails on
  // its own and the pool replaces the client. Logged once when connections start dying and once when
  // the pool opens a new one, however many died in between.
  const trouble = reportOncePerOutage(
    options.log ?? jsonLines,
    "database connection lost",
    "database connection opened again",
  );
  pool.on("error", () => {}); // the client's own listener has reported it
  pool.on("connect", (client) => {
    trouble.recovered();
    client.on("error", (error) => trouble.failed(error));
  });
  const db = new Kysely<DB>({ dialect: new ShapesPostgresDialect({ pool }), plugins: [columnShapesPlugin], log });
  // Prepared reads (db/prepared.ts) as named statements: each connection parses and plans them once.
  const names = new Map<string, string>();
  registerDirectReads(db, {
    read: (sql, parameters) => {
      let name = names.get(sql);
      if (!name) {
        name = `r${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
        names.set(sql, name);
      }
      count++;
      return pool.query({ name, text: sql, values: parameters as unknown[] }).then((result) => result.rows);
    },
  });
  return {
    db,
    engine: "postgres",
    url,
    schema: options.schema,
    queryCount: () => count,
    oldestWaitMs: () => pool.oldestWaitMs(),
    close: () => db.destroy(),
  };
}

export function engineOf<T>(db: Kysely<T>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01", // admin_shutdown (pg_terminate_backend, a fast shutdown)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "53300", // too_many_connections
]);

/** Codes of a database that is up but too busy to answer in time (decision 0049). */
const BUSY_CODES = new Set([POOL_EXHAUSTED, "SQLITE_BUSY"]);

/** Every connection stayed busy (PostgreSQL) or the write lock stayed taken (SQLite) until the wait ran out. */
export function isDatabaseBusy(error: unknown, depth = 0): boolean {
  const e = error as { code?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== "object" || depth > 3) return false;
  if (typeof e.code === "string" && BUSY_CODES.has(e.code)) return true;
  return isDatabaseBusy(e.cause, depth + 1);
}

/**
 * The database could not be reached or dropped the connection: worth a 503 and a retry, not a 500.
 * (A cancelled statement, 57014, is not: it is this request's own query that took too long.)
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== "object" || depth > 3 || isDatabaseBusy(e)) return false;
  if (typeof e.code === "string" && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  if (
    typeof e.message === "string" &&
    /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection refused/i.test(e.message)
  ) {
    return true;
  }
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** A unique-key violation on either engine (the loser of a race on a unique index). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
