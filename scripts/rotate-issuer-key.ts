import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { issuerDid, rotateIssuerKey } from "#server/modules/credentials/issuer.ts";

// npm run credentials:rotate-key: new credentials are signed with a new key; the old public keys
// stay in the DID document, so credentials issued before still verify.
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database.db);
  const keyId = await rotateIssuerKey(database.db);
  console.log(`New signing key ${issuerDid(config)}#${keyId}. Earlier keys remain in /.well-known/did.json.`);
} finally {
  await database.close();
}
