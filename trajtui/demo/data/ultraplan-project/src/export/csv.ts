import { registerFormat } from "./registry.js";

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

registerFormat({
  name: "csv",
  extension: ".csv",
  async write(rows, out) {
    out.write("date,account,description,amount\n");
    for await (const r of rows) {
      out.write([r.date, r.account, r.description, r.amount].map(quote).join(",") + "\n");
    }
  },
});
