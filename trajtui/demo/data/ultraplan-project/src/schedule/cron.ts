const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

export function parseField(field: string, min: number, max: number, names: string[] = []): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(",")) {
    const [range, step = "1"] = part.split("/");
    const [lo, hi] = range === "*" ? [min, max] : range.split("-").map((v) => value(v, names, min));
    for (let v = lo; v <= (hi ?? lo); v += Number(step)) out.add(v);
  }
  return out;
}

function value(v: string, names: string[], min: number): number {
  const i = names.indexOf(v.toUpperCase());
  return i >= 0 ? i + min : Number(v);
}

export { DAYS };
