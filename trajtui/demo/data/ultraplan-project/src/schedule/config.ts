import { z } from "zod";

export const Schedule = z.object({
  name: z.string().min(1),
  cron: z.string(),
  format: z.enum(["csv", "jsonl"]),
  destination: z.string(),
  timezone: z.string().default("UTC"),
});

export type Schedule = z.infer<typeof Schedule>;
