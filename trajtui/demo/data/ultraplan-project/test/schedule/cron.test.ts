import { expect, it } from "vitest";
import { DAYS, parseField } from "../../src/schedule/cron.js";

it("parses day names in ranges", () => {
  expect([...parseField("MON-FRI", 0, 6, DAYS)]).toEqual([1, 2, 3, 4, 5]);
});

it("parses steps", () => {
  expect([...parseField("*/15", 0, 59)]).toEqual([0, 15, 30, 45]);
});
