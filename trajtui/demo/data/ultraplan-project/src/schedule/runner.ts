import type { Schedule } from "./config.js";

export async function runDue(schedules: Schedule[], now: Date): Promise<void> {
  for (const s of schedules) {
    // TODO(04-02 task 3): take .ledgerline/locks/<name>.lock before starting
    await runOne(s, now);
  }
}

declare function runOne(s: Schedule, now: Date): Promise<void>;
