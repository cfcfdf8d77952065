import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an S3-compatible object store (no S3 service is reachable here): path-style
 * PUT, GET (whole or one byte range), HEAD and DELETE of objects in the buckets it was started with, each request's AWS
 * Signature V4 checked against the one key pair it knows, and S3's XML errors. The real
 * `@aws-sdk/client-s3` talks to it through its endpoint and forcePathStyle options.
 */
export interface FakeS3 {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stored objects by `bucket/key`. */
  objects: Map<string, Buffer>;
  /** Every request received: method, path and any Range header. */
  requests: { method: string; path: string; range?: string }[];
  /** While true, every request gets a 500 InternalError (an outage). */
  failing: boolean;
  /** Settings that point the app's storage at this fake. */
  env(bucket: string, extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const REGION = "us-east-1";

function xmlError(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>fake</RequestId></Error>`,
  );
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Recomputes the request's Signature V4 (header form) and compares it with the one sent. */
function signatureProblem(req: IncomingMessage, body: Buffer, accessKeyId: string, secret: string): string | null {
  const auth = req.headers.authorization ?? "";
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!match) return "missing or malformed Authorization header";
  const [, keyId, date = "", region = "", signedHeaders = "", signature] = match;
  if (keyId !== accessKeyId) return "unknown access key";
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) return "payload hash does not match";
  const url = new URL(req.url ?? "/", "http://fake");
  const query = [...url.searchParams]
    .map(([k, v]): [string, string] => [encode(k), encode(v)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headers = signedHeaders
    .split(";")
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join("\n");
  const stamp = String(req.headers["x-amz-date"] ?? "");
  const toSign = ["AWS4-HMAC-SHA256", stamp, `${date}/${region}/s3/aws4_request`, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), "s3"), "aws4_request");
  return hmac(key, toSign).toString("hex") === signature ? null : "signature does not match";
}

export async function startFakeS3(buckets: string[]): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const requests: FakeS3["requests"] = [];
  const fake = {
    accessKeyId: "FAKEACCESSKEY",
    secretAccessKey: "fake-secret-access-key",
    objects,
    requests,
    failing: false,
  } as FakeS3;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://fake").pathname);
      requests.push({ method: req.method ?? "", path, ...(req.headers.range ? { range: req.headers.range } : {}) });
      if (fake.failing) return xmlError(res, 500, "InternalError", "We encountered an internal error.");
      const problem = signatureProblem(req, body, fake.accessKeyId, fake.secretAccessKey);
      if (problem) return xmlError(res, 403, "SignatureDoesNotMatch", problem);
      const [, bucket = "", ...rest] = path.split("/");
      const key = rest.join("/");
      if (!buckets.includes(bucket)) return xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist");
      if (!key) return xmlError(res, 400, "InvalidRequest", "Only object requests are supported here");
      const id = `${bucket}/${key}`;
      const etag = () => `"${createHash("md5").update(objects.get(id)!).digest("hex")}"`;
      switch (req.method) {
        case "PUT":
          objects.set(id, body);
          res.writeHead(200, { etag: etag() });
          return res.end();
        case "GET":
        case "HEAD": {
          const data = objects.get(id);
          if (!data) {
            if (req.method === "HEAD") return res.writeHead(404).end();
            return xmlError(res, 404, "NoSuchKey", "The specified key does not exist.");
          }
          // One byte range, as S3 reads it (bytes=a-b, bytes=a-, bytes=-n); past the end is S3's InvalidRange.
          const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ""));
          if (req.method === "GET" && range) {
            const [, from = "", to = ""] = range;
            const start = from === "" ? Math.max(0, data.length - Number(to)) : Number(from);
            const end = from === "" || to === "" ? data.length - 1 : Math.min(Number(to), data.length - 1);
            if (start >= data.length || end < start)
              return xmlError(res, 416, "InvalidRange", "The requested range is not satisfiable");
            res.writeHead(206, {
              "content-type": "application/octet-stream",
              "content-length": end - start + 1,
              "content-range": `bytes ${start}-${end}/${data.length}`,
              etag: etag(),
            });
            return res.end(data.subarray(start, end + 1));
          }
          res.writeHead(200, {
            "content-type": "application/octet-stream",
            "content-length": data.length,
            etag: etag(),
          });
          return res.end(req.method === "GET" ? data : undefined);
        }
        case "DELETE":
          objects.delete(id);
          res.writeHead(204);
          return res.end();
        default:
          return xmlError(res, 405, "MethodNotAllowed", "The specified method is not allowed");
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.env = (bucket, extra = {}) => ({
    S3_BUCKET: bucket,
    S3_ENDPOINT: fake.url,
    S3_REGION: REGION,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: fake.accessKeyId,
    S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
    ...extra,
  });
  fake.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return fake;
}
