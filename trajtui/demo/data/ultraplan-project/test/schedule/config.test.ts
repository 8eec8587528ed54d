import { expect, it } from "vitest";
import { Schedule } from "../../src/schedule/config.js";

it("defaults the time zone to UTC", () => {
  expect(Schedule.parse({ name: "n", cron: "0 2 * * *", format: "csv", destination: "out/" }).timezone).toBe("UTC");
});
