import { describe, expect, it } from "vitest";

describe("csv", () => {
  it("quotes commas, quotes and newlines", async () => {
    expect(await render([{ date: "2026-02-01", account: "4000", description: 'Fees, "late"', amount: "12.50" }]))
      .toContain('"Fees, ""late"""');
  });
});
