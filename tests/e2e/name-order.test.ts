import { describe, expect, it } from "vitest";
import { expectFocused, tabTo } from "./focus.ts";
import { completeFixtureCourse, expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();

describe("name order on the profile, keyboard only", () => {
  it("chooses family name first with the arrow keys, saves, and the next certificate reads 山田太郎", async () => {
    const page = await e2e.newPage();
    const email = `order-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "太郎", lastName: "山田", email, password: "sakura-path-88" });

    await page.goto("/profile");
    const main = page.locator("main");
    await page.getByRole("heading", { name: "Your profile", level: 1 }).waitFor();
    const group = main.getByRole("radiogroup", { name: "Name order on certificates" });
    const givenFirst = group.getByRole("radio", { name: /Given name first/ });
    const familyFirst = group.getByRole("radio", { name: /Family name first/ });
    expect(await givenFirst.isChecked()).toBe(true);
    expect(await group.getAttribute("aria-describedby")).toBeTruthy();
    const preview = main.getByText("Printed as:");
    expect(await preview.innerText()).toBe("Printed as: 太郎 山田");
    await expectAccessible(page, "profile");

    await page.keyboard.press("Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await page.keyboard.press("Enter");
    await expectFocused(main, "the main content");
    await tabTo(page, main.getByLabel("First name"), "First name");
    await page.keyboard.press("Tab");
    await expectFocused(main.getByLabel("Last name"), "Last name");
    // Tab enters the group at the chosen option; an arrow key moves the choice.
    await page.keyboard.press("Tab");
    await expectFocused(givenFirst, "the chosen order, Given name first");
    await page.keyboard.press("ArrowDown");
    await expectFocused(familyFirst, "Family name first");
    expect(await familyFirst.isChecked()).toBe(true);
    expect(await preview.innerText()).toBe("Printed as: 山田太郎");
    await page.keyboard.press("Tab");
    const save = main.getByRole("button", { name: "Save" });
    await expectFocused(save, "Save");
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Profile Updated").waitFor();
    await expectFocused(save, "Save, after saving");
    expect(await main.getByRole("alert").count()).toBe(0);

    // Read back from the server on a fresh load.
    await page.reload();
    await page.getByRole("heading", { name: "Your profile", level: 1 }).waitFor();
    await expect.poll(() => familyFirst.isChecked()).toBe(true);

    await e2e.enrol(email, "fixture-basics");
    expect(await completeFixtureCourse(page)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    await page.goto("/course/fixture-basics");
    await page.getByRole("button", { name: "Get Certificate" }).click();
    await page.getByRole("heading", { name: "Certificate of Completion" }).waitFor();
    expect(await page.getByTestId("holder-name").innerText()).toBe("山田太郎");
  });

  it("shows a refused name inline, on the field, and moves focus there", async () => {
    const page = await e2e.newPage();
    const email = `order-error-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Ada", lastName: "Lovelace", email, password: "engine-notes-1843" });
    await page.goto("/profile");
    const main = page.locator("main");
    await page.getByRole("heading", { name: "Your profile", level: 1 }).waitFor();
    const lastName = main.getByLabel("Last name");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await tabTo(page, lastName, "Last name");
    // Only spaces: the browser's "required" is satisfied, the server refuses it.
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("   ");
    await tabTo(page, main.getByRole("button", { name: "Save" }), "Save", 3);
    await page.keyboard.press("Enter");

    const alert = main.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Last name is required/);
    await expectFocused(lastName, "Last name, after the error");
    expect(await lastName.getAttribute("aria-invalid")).toBe("true");
    expect(await lastName.getAttribute("aria-describedby")).toContain(await alert.getAttribute("id"));
    expect(await main.getByLabel("First name").getAttribute("aria-invalid")).toBeNull();
    await expectAccessible(page, "profile error");
  });
});
