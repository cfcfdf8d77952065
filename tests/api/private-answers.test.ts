import { afterAll, describe, expect, it } from "vitest";
import { buyInSandbox, createTestApp, request, signUpUser } from "../setup/test-app.ts";

const t = await createTestApp();
afterAll(async () => t?.close());

describe("personal answers are kept by no cache", () => {
  it("says private, no-store on who is signed in, purchases and receipts, progress and My Learning", async () => {
    const learner = await signUpUser(t.app);
    await buyInSandbox(t, learner, "fixture-basics");
    const [purchase] = (await request(t.app, "GET", "/api/purchases", { cookie: learner.cookie })).json() as {
      orderId: string;
    }[];
    const urls = [
      "/api/auth/user",
      "/api/auth/get-session",
      "/api/purchases",
      `/api/purchases/${purchase?.orderId}`,
      "/api/progress/fixture-basics",
      "/api/my-learning",
      "/api/enrollments",
      "/api/certificates",
    ];
    for (const url of urls) {
      const res = await request(t.app, "GET", url, { cookie: learner.cookie });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe("private, no-store");
    }
  });

  it("leaves a route's own policy alone, and a visitor's public answers too", async () => {
    const learner = await signUpUser(t.app);
    const page = await request(t.app, "GET", "/api/courses/fixture-basics", { cookie: learner.cookie });
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    const visitor = await request(t.app, "GET", "/api/courses");
    expect(visitor.headers["cache-control"]).not.toBe("private, no-store");
  });
});
