// JSON paths of the contract ("attacker.chosen", "rounds[2].attacker.special_use"): read, write, find the schema.

/** Split "a.b[2].c" into ["a", "b", 2, "c"]. */
export function parsePath(path) {
  const out = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m;
  while ((m = re.exec(String(path || ""))) !== null) out.push(m[2] !== undefined ? parseInt(m[2], 10) : m[1]);
  return out;
}

/** Return the value at path in obj (undefined when a step is missing). */
export function getAt(obj, path) {
  let cur = obj;
  for (const key of parsePath(path)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Write value at path in obj, creating the objects and arrays on the way. */
export function setAt(obj, path, value) {
  const keys = parsePath(path);
  if (!keys.length) return;
  let cur = obj;
  keys.slice(0, -1).forEach((key, i) => {
    if (cur[key] === null || typeof cur[key] !== "object") cur[key] = typeof keys[i + 1] === "number" ? [] : {};
    cur = cur[key];
  });
  cur[keys[keys.length - 1]] = value;
}

/** Remove the value at path (a no-op when it is missing). */
export function deleteAt(obj, path) {
  const keys = parsePath(path);
  const parent = keys.length > 1 ? getAt(obj, keys.slice(0, -1).map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("").replace(/^\./, "")) : obj;
  if (parent && typeof parent === "object") {
    const last = keys[keys.length - 1];
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
    else delete parent[last];
  }
}

function nonNull(schema) {
  const opts = schema && (schema.anyOf || schema.oneOf);
  if (!opts) return schema;
  const real = opts.filter((o) => o.type !== "null");
  return real.length === 1 ? real[0] : schema;
}

function resolveRef(root, schema) {
  if (schema && schema.$ref && schema.$ref.startsWith("#/")) {
    let cur = root;
    for (const part of schema.$ref.slice(2).split("/")) cur = cur && cur[part];
    return cur || schema;
  }
  return schema;
}

/** Return the schema of the value at path (null when the schema does not say). */
export function schemaAt(root, path) {
  let cur = root;
  for (const key of parsePath(path)) {
    cur = nonNull(resolveRef(root, cur));
    if (!cur) return null;
    if (typeof key === "number") {
      cur = (cur.prefixItems && cur.prefixItems[key]) || cur.items || null;
    } else {
      let next = (cur.properties || {})[key];
      if (!next && cur.allOf) {
        for (const part of cur.allOf) {
          const then = part.then && part.then.properties && part.then.properties[key];
          if (then) { next = then; break; }
        }
      }
      if (!next && cur.additionalProperties && typeof cur.additionalProperties === "object") next = cur.additionalProperties;
      cur = next || null;
    }
  }
  return cur ? nonNull(resolveRef(root, cur)) : null;
}
