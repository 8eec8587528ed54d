export { registerFormat, getFormat } from "./registry.js";
import "./csv.js";
import "./jsonl.js";
