import { readFileSync } from "node:fs";
import { parse } from "@babel/parser";
import type * as t from "@babel/types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOLEAN_COLUMNS } from "#server/db/column-shapes.ts";
import { preparedQuery } from "#server/db/fast-paths.ts";
import { createTestDatabase, type TestDatabase, testEngine, whileNoSchemaIsDropped } from "../setup/test-database.ts";

/**
 * `src/server/db/schema.ts` is written by hand; the migrations make the database. This holds them
 * together on each engine: the same tables, the same columns, `| null` exactly where a column
 * accepts NULL, and the shape the data layer hands out (db/column-shapes.ts, decision 0040): a
 * timestamp column is `Timestamp` (an ISO string), a yes/no column `boolean`.
 */
const SCHEMA_FILE = "src/server/db/schema.ts";
/** The migrator's own bookkeeping, which the app never queries. */
const MIGRATOR_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);
/** SQLite's full-text index of questions (FTS5 and its shadow tables), read by raw SQL only (decision 0056). */
const SEARCH_INDEX = /^postSearch(_\w+)?$/;

type Kind = "timestamp" | "boolean" | "other";
interface ColumnShape {
  nullable: boolean;
  /** "text" only for a SQLite text column, which may hold a timestamp (PostgreSQL tells them apart). */
  kind: Kind | "text";
}
type Tables = Record<string, Record<string, ColumnShape>>;

/** Whether a declared column type admits null: `T | null`, through Generated<> and local aliases. */
function admitsNull(type: t.TSType, aliases: Map<string, t.TSType>): boolean {
  if (type.type === "TSNullKeyword") return true;
  if (type.type === "TSUnionType") return type.types.some((part) => admitsNull(part, aliases));
  if (type.type === "TSParenthesizedType") return admitsNull(type.typeAnnotation, aliases);
  if (type.type === "TSTypeReference" && type.typeName.type === "Identifier") {
    const name = type.typeName.name;
    const first = type.typeParameters?.params[0];
    if ((name === "Generated" || name === "ColumnType") && first) return admitsNull(first, aliases);
    const alias = aliases.get(name);
    if (alias) return admitsNull(alias, aliases);
  }
  return false;
}

/** Whether a declared column type is the `Timestamp` alias or `boolean`, through Generated<> and `| null`. */
function kindOf(type: t.TSType): Kind {
  if (type.type === "TSBooleanKeyword") return "boolean";
  if (type.type === "TSParenthesizedType") return kindOf(type.typeAnnotation);
  if (type.type === "TSUnionType") {
    const kinds = new Set(type.types.filter((part) => part.type !== "TSNullKeyword").map(kindOf));
    return kinds.size === 1 ? [...kinds][0]! : "other";
  }
  if (type.type === "TSTypeReference" && type.typeName.type === "Identifier") {
    const name = type.typeName.name;
    const first = type.typeParameters?.params[0];
    if ((name === "Generated" || name === "ColumnType") && first) return kindOf(first);
    if (name === "Timestamp") return "timestamp";
  }
  return "other";
}

/**
 * What a migrated column holds. PostgreSQL says timestamptz; SQLite stores timestamps as text. Yes/no
 * columns are integer 0/1 on both engines (Better Auth's `emailVerified` is boolean on PostgreSQL);
 * the data layer knows them by name (BOOLEAN_COLUMNS), a list held to schema.ts below.
 */
function migratedKind(column: string, dataType: string): ColumnShape["kind"] {
  const type = dataType.toLowerCase();
  if (type === "timestamptz" || type === "timestamp") return "timestamp";
  if (type === "bool" || type === "boolean") return "boolean";
  if (BOOLEAN_COLUMNS.has(column) && (type === "integer" || type === "int4")) return "boolean";
  if (testEngine === "sqlite" && type === "text") return "text";
  return "other";
}

/** Tables and columns as `DB` in schema.ts declares them (parsed, since the type checker is not a library). */
function declaredTables(): Tables {
  const program = parse(readFileSync(SCHEMA_FILE, "utf8"), { sourceType: "module", plugins: ["typescript"] }).program;
  const declarations = program.body.map((s) => (s.type === "ExportNamedDeclaration" ? s.declaration : s));
  const interfaces = new Map<string, t.TSInterfaceDeclaration>();
  const aliases = new Map<string, t.TSType>();
  for (const d of declarations) {
    if (d?.type === "TSInterfaceDeclaration") interfaces.set(d.id.name, d);
    if (d?.type === "TSTypeAliasDeclaration") aliases.set(d.id.name, d.typeAnnotation);
  }
  const propertiesOf = (declaration: t.TSInterfaceDeclaration) =>
    declaration.body.body.flatMap((m) =>
      m.type === "TSPropertySignature" && m.key.type === "Identifier" && m.typeAnnotation
        ? [{ name: m.key.name, type: m.typeAnnotation.typeAnnotation }]
        : [],
    );
  const db = interfaces.get("DB");
  if (!db) throw new Error("schema.ts declares no DB interface");
  const tables: Tables = {};
  for (const table of propertiesOf(db)) {
    const name =
      table.type.type === "TSTypeReference" && table.type.typeName.type === "Identifier"
        ? table.type.typeName.name
        : "";
    const declaration = interfaces.get(name);
    if (!declaration) throw new Error(`DB.${table.name} names ${name || "a type"} that schema.ts does not declare`);
    tables[table.name] = Object.fromEntries(
      propertiesOf(declaration).map((c) => [c.name, { nullable: admitsNull(c.type, aliases), kind: kindOf(c.type) }]),
    );
  }
  return tables;
}

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.drop();
});

/** Tables and columns as the migrated database has them. */
async function migratedTables(): Promise<Tables> {
  const tables: Tables = {};
  const db = testDb.database.db;
  const introspected = testDb.schema
    ? await whileNoSchemaIsDropped(testDb.url, () => db.introspection.getTables())
    : await db.introspection.getTables();
  for (const table of introspected) {
    if (MIGRATOR_TABLES.has(table.name)) continue;
    if (testEngine === "sqlite" && SEARCH_INDEX.test(table.name)) continue;
    if (testDb.schema && table.schema !== testDb.schema) continue;
    // SQLite lets a primary key that is not an INTEGER hold NULL (a documented quirk kept for
    // compatibility); every one of ours is written by the app, so it counts as NOT NULL.
    const keys =
      testEngine === "sqlite"
        ? new Set(
            (
              await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table.name})`.execute(db)
            ).rows
              .filter((c) => c.pk > 0)
              .map((c) => c.name),
          )
        : new Set<string>();
    tables[table.name] = Object.fromEntries(
      table.columns.map((c) => [
        c.name,
        { nullable: c.isNullable && !keys.has(c.name), kind: migratedKind(c.name, c.dataType) },
      ]),
    );
  }
  return tables;
}

describe(`schema.ts against the migrated database (${testEngine})`, () => {
  it("declares every table the migrations make, and no other", async () => {
    const declared = Object.keys(declaredTables()).sort();
    const migrated = Object.keys(await migratedTables()).sort();
    expect(declared).toEqual(migrated);
  });

  it("declares every column of every table, with | null exactly where the column accepts NULL", async () => {
    const declared = declaredTables();
    const migrated = await migratedTables();
    const differences: string[] = [];
    for (const [table, columns] of Object.entries(migrated)) {
      const mine = declared[table] ?? {};
      for (const [column, shape] of Object.entries(columns)) {
        if (!mine[column]) differences.push(`${table}.${column}: in the database, not in schema.ts`);
        else if (mine[column].nullable !== shape.nullable)
          differences.push(
            `${table}.${column}: ${shape.nullable ? "accepts" : "refuses"} NULL, schema.ts says ${mine[column].nullable ? "| null" : "never null"}`,
          );
      }
      for (const column of Object.keys(mine))
        if (!columns[column]) differences.push(`${table}.${column}: in schema.ts, not in the database`);
    }
    expect(differences).toEqual([]);
  });

  it("types timestamp columns as Timestamp and yes/no columns as boolean, and no other column so", async () => {
    const declared = declaredTables();
    const differences: string[] = [];
    for (const [table, columns] of Object.entries(await migratedTables())) {
      for (const [column, shape] of Object.entries(columns)) {
        const mine = declared[table]?.[column];
        if (!mine) continue;
        const agrees = shape.kind === "text" ? mine.kind !== "boolean" : mine.kind === shape.kind;
        if (!agrees)
          differences.push(`${table}.${column}: the database holds ${shape.kind}, schema.ts says ${mine.kind}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("lists every boolean column's name for the data layer, and no other column has one of those names", () => {
    const declaredBooleans = new Set<string>();
    const others = new Set<string>();
    for (const columns of Object.values(declaredTables()))
      for (const [column, shape] of Object.entries(columns))
        (shape.kind === "boolean" ? declaredBooleans : others).add(column);
    expect([...BOOLEAN_COLUMNS].sort()).toEqual([...declaredBooleans].sort());
    expect([...others].filter((c) => BOOLEAN_COLUMNS.has(c))).toEqual([]);
  });
});

describe(`rows in schema.ts's shapes on ${testEngine}`, () => {
  const couponRow = (id: string, active: boolean) => ({
    id,
    code: id.toUpperCase(),
    percentOff: 10,
    amountOff: null,
    courseId: null,
    expiresAt: "2031-02-03T04:05:06.789Z",
    maxRedemptions: null,
    redemptionCount: 0,
    active,
    createdAt: "2030-01-02T03:04:05.678Z",
  });
  const couponById = preparedQuery(
    (db, id: string) => db.selectFrom("coupon").select(["id", "active", "expiresAt"]).where("id", "=", id),
    1,
  );
  const activeCoupons = preparedQuery(
    (db, active: boolean) => db.selectFrom("coupon").select("id").where("active", "=", active).orderBy("id"),
    1,
  );

  // Written through the data layer, with booleans and ISO strings (the tests run in a shuffled order).
  beforeAll(async () => {
    const db = testDb.database.db;
    await db
      .insertInto("coupon")
      .values([couponRow("on", true), couponRow("off", false)])
      .execute();
    await db.updateTable("coupon").set({ expiresAt: "2032-12-31T23:59:59.999Z" }).where("id", "=", "off").execute();
  });

  it("reads booleans back as booleans and timestamps as the same ISO strings, by every path", async () => {
    const db = testDb.database.db;
    const viaKysely = await db
      .selectFrom("coupon")
      .select(["id", "active", "expiresAt", "createdAt"])
      .orderBy("id")
      .execute();
    expect(viaKysely).toEqual([
      { id: "off", active: false, expiresAt: "2032-12-31T23:59:59.999Z", createdAt: "2030-01-02T03:04:05.678Z" },
      { id: "on", active: true, expiresAt: "2031-02-03T04:05:06.789Z", createdAt: "2030-01-02T03:04:05.678Z" },
    ]);
    const viaSql = await sql<{ active: unknown; expiresAt: unknown }>`
      select active, "expiresAt" from coupon where id = ${"on"}`.execute(db);
    expect(viaSql.rows).toEqual([{ active: true, expiresAt: "2031-02-03T04:05:06.789Z" }]);
    expect(await couponById(db, "on")).toEqual([{ id: "on", active: true, expiresAt: "2031-02-03T04:05:06.789Z" }]);
    expect(await activeCoupons(db, false)).toEqual([{ id: "off" }]);
  });

  it("keeps what SQL compares: yes/no stored as 1 and 0, timestamps ordered against ISO parameters", async () => {
    const db = testDb.database.db;
    const stored = await sql<{ id: string; n: number }>`
      select id, active + 0 as n from coupon where active = 1 or active = 0 order by id`.execute(db);
    expect(stored.rows).toEqual([
      { id: "off", n: 0 },
      { id: "on", n: 1 },
    ]);
    const expiringBefore = await db
      .selectFrom("coupon")
      .select("id")
      .where("expiresAt", "<", "2032-01-01T00:00:00.000Z")
      .where("active", "=", true)
      .execute();
    expect(expiringBefore).toEqual([{ id: "on" }]);
  });

  it("hands Better Auth's own handle the engine's shapes, which it converts itself", async () => {
    const raw = await testDb.database.db
      .withoutPlugins()
      .selectFrom("coupon")
      .select(["active", "createdAt"])
      .where("id", "=", "on")
      .executeTakeFirstOrThrow();
    expect(raw.createdAt).toEqual(
      testEngine === "postgres" ? new Date("2030-01-02T03:04:05.678Z") : "2030-01-02T03:04:05.678Z",
    );
    expect(raw.active).toBe(1);
  });
});
