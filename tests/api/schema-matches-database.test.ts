import { readFileSync } from "node:fs";
import { parse } from "@babel/parser";
import type * as t from "@babel/types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testEngine } from "../setup/test-database.ts";

/**
 * `src/server/db/schema.ts` is written by hand; the migrations make the database. This holds them
 * together on each engine: the same tables, the same columns, and `| null` exactly where a column
 * accepts NULL.
 */
const SCHEMA_FILE = "src/server/db/schema.ts";
/** The migrator's own bookkeeping, which the app never queries. */
const MIGRATOR_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

interface ColumnShape {
  nullable: boolean;
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
      propertiesOf(declaration).map((c) => [c.name, { nullable: admitsNull(c.type, aliases) }]),
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
  for (const table of await db.introspection.getTables()) {
    if (MIGRATOR_TABLES.has(table.name)) continue;
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
      table.columns.map((c) => [c.name, { nullable: c.isNullable && !keys.has(c.name) }]),
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
});
