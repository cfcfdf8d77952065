import { describe, expect, it } from "vitest";
import { verificationLinkIn } from "../setup/test-smtp.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E({ env: { ADMIN_EMAILS: "owner@academy.example" } });

describe("admin in the browser", () => {
  it("an admin enrols a learner by e-mail, and the learner then sees Continue Course", async () => {
    const learnerEmail = `student-${Date.now()}@example.com`;
    const learner = await e2e.newPage();
    await signUpInBrowser(learner, {
      firstName: "Sam",
      lastName: "Student",
      email: learnerEmail,
      password: "meadow-lark-27",
    });
    await learner
      .getByTestId("course-card-fixture-basics")
      .getByRole("link", { name: "Preview Course Content" })
      .waitFor();

    // A learner who opens the admin page sees the 403 page.
    await learner.goto("/admin-enrollments");
    await learner.getByRole("heading", { name: "403 Access Denied" }).waitFor();
    await expect.poll(() => learner.title()).toMatch(/^403 Access Denied \|/);
    await learner.goto("/admin/coupons");
    await learner.getByRole("heading", { name: "403 Access Denied" }).waitFor();
    await expect.poll(() => learner.title()).toMatch(/^403 Access Denied \|/);
    expect(await learner.getByRole("link", { name: "Admin" }).count()).toBe(0);

    const admin = await e2e.newPage();
    await signUpInBrowser(admin, {
      firstName: "Olive",
      lastName: "Owner",
      email: "owner@academy.example",
      password: "sunrise-valley-64",
    });
    // The owner's address becomes admin only once verified: nothing to see before the mailed link is opened.
    expect(await admin.getByRole("link", { name: "Admin" }).count()).toBe(0);
    await expect.poll(() => e2e.inbox.filter((m) => m.to.includes("owner@academy.example")).length).toBeGreaterThan(0);
    const mail = e2e.inbox.find((m) => m.to.includes("owner@academy.example") && m.raw.includes("verify-email"))!;
    await admin.goto(verificationLinkIn(mail));
    await admin.getByRole("link", { name: "Admin" }).click();
    // The admin area opens on Analytics; enrolments are one section along.
    await admin.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    await admin.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Enrollments" }).click();
    await admin.getByRole("heading", { name: "Manual enrollment" }).waitFor();
    await expectAccessible(admin, "admin enrollments");

    await admin.getByRole("button", { name: "Enroll User" }).click();
    await toastText(admin).getByText("Missing Information").waitFor();
    expect(await toastText(admin).innerText()).toContain("Please enter both email and select a course.");

    await admin.getByLabel("User email").fill(learnerEmail);
    await admin.getByLabel("Course").selectOption("fixture-basics");
    await admin.getByRole("button", { name: "Enroll User" }).click();
    await toastText(admin).getByText("Success!").waitFor();
    expect(await toastText(admin).innerText()).toContain(`${learnerEmail} has been enrolled in the selected course.`);
    expect(await admin.getByLabel("User email").inputValue()).toBe("");
    expect(await admin.getByLabel("Course").inputValue()).toBe("");

    await admin.getByLabel("User email").fill(learnerEmail);
    await admin.getByLabel("Course").selectOption("fixture-basics");
    await admin.getByRole("button", { name: "Enroll User" }).click();
    await toastText(admin).getByText("Enrollment Failed").waitFor();
    expect(await toastText(admin).innerText()).toContain("already enrolled");

    await learner.goto("/");
    await learner.getByTestId("course-card-fixture-basics").getByRole("link", { name: "Continue Course" }).waitFor();

    // The other admin screens render and pass axe.
    for (const [path, heading] of [
      ["/admin/coupons", "Coupons"],
      ["/admin/orders", "Orders"],
      ["/admin/learners", "Learners"],
      ["/admin/audit", "Audit log"],
    ] as const) {
      await admin.goto(path);
      await admin.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await expectAccessible(admin, path);
    }
    await admin.goto("/admin/audit");
    await admin.getByRole("cell", { name: "enrollment.create" }).first().waitFor();

    // Coupons: a past expiry reads Expired; deactivating asks first and ends with a toast.
    await admin.goto("/admin/coupons");
    await admin.getByRole("heading", { name: "Coupons", level: 1 }).waitFor();
    const createCoupon = async (code: string, expires?: string) => {
      await admin.getByLabel("Code").fill(code);
      await admin.getByLabel("Percent (1-100)").fill("10");
      if (expires) await admin.getByLabel("Expires (optional)").fill(expires);
      await admin.getByRole("button", { name: "Create Coupon" }).click();
      await admin.getByRole("row", { name: new RegExp(code) }).waitFor();
    };
    await createCoupon("LASTYEAR", "2020-01-31");
    await createCoupon("SPRING10");
    const row = (code: string) => admin.getByRole("row", { name: new RegExp(code) });
    expect(await row("LASTYEAR").getByRole("cell").nth(5).innerText()).toBe("Expired");
    expect(await row("SPRING10").getByRole("cell").nth(5).innerText()).toBe("Active");

    const deactivate = admin.getByRole("button", { name: "Deactivate SPRING10" });
    await deactivate.click();
    const dialog = admin.getByRole("alertdialog", { name: "Deactivate SPRING10?" });
    await dialog.waitFor();
    await expectAccessible(admin, "coupon deactivation dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await deactivate.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await row("SPRING10").getByRole("cell").nth(5).innerText()).toBe("Active");

    await deactivate.click();
    await dialog.getByRole("button", { name: "Deactivate Coupon" }).click();
    await toastText(admin).getByText("Coupon Deactivated").waitFor();
    await expect.poll(() => row("SPRING10").getByRole("cell").nth(5).innerText()).toBe("Inactive");
  });
});
