import { registerFormat } from "./registry.js";

registerFormat({
  name: "jsonl",
  extension: ".jsonl",
  async write(rows, out) {
    for await (const r of rows) {
      out.write(JSON.stringify({ date: r.date, account: r.account, description: r.description, amount: String(r.amount) }) + "\n");
    }
  },
});
