import { describe, expect, it } from "vitest";

describe("jsonl", () => {
  it("keeps amounts as strings", async () => {
    expect(await render([{ date: "2026-02-01", account: "4000", description: "Fees", amount: "0.10" }]))
      .toBe('{"date":"2026-02-01","account":"4000","description":"Fees","amount":"0.10"}\n');
  });
});
