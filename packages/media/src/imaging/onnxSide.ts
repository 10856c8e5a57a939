/**
 * The background removal model at a smaller input side. The ISNet export declares a fixed 1024×1024 input and
 * every Resize in it carries constant target sizes, so a smaller picture fails inside the graph. The network
 * itself is fully convolutional: dividing those sizes (and the declared input and output sides) by the same
 * power of two gives the same network at that side, a quarter of the work at 512. This rewrites the model's
 * protocol buffer just there, with a few lines of wire-format code rather than a protobuf dependency.
 */

type Field = { tag: number; wire: number; value: Buffer };

function readVarint(bytes: Buffer, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let p = at;
  for (;;) {
    const byte = bytes[p++] as number;
    result |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if (!(byte & 0x80)) return [result, p];
  }
}

function varint(value: bigint | number): Buffer {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Buffer.from(out);
}

function decode(bytes: Buffer): Field[] {
  const fields: Field[] = [];
  let p = 0;
  while (p < bytes.length) {
    const [key, start] = readVarint(bytes, p);
    const tag = Number(key >> 3n);
    const wire = Number(key & 7n);
    let end: number;
    let value: Buffer;
    if (wire === 0) {
      end = readVarint(bytes, start)[1];
      value = bytes.subarray(start, end);
    } else if (wire === 2) {
      const [length, from] = readVarint(bytes, start);
      end = from + Number(length);
      value = bytes.subarray(from, end);
    } else if (wire === 1 || wire === 5) {
      end = start + (wire === 1 ? 8 : 4);
      value = bytes.subarray(start, end);
    } else {
      throw new Error(`Unexpected protobuf wire type ${wire} in the model`);
    }
    fields.push({ tag, wire, value });
    p = end;
  }
  return fields;
}

const encode = (fields: Field[]): Buffer =>
  Buffer.concat(
    fields.flatMap(({ tag, wire, value }) => {
      const key = varint((tag << 3) | wire);
      return wire === 2 ? [key, varint(value.length), value] : [key, value];
    }),
  );

/** Replaces the value of every field `tag` of a message by `change(value)`. */
const edit = (message: Buffer, tag: number, change: (value: Buffer, index: number) => Buffer) => {
  let index = 0;
  return encode(decode(message).map((f) => (f.tag === tag ? { ...f, value: change(f.value, index++) } : f)));
};

const text = (fields: Field[], tag: number) => fields.find((f) => f.tag === tag)?.value.toString();

// ONNX field numbers (onnx.proto): ModelProto.graph 7; GraphProto node 1, initializer 5, input 11, output 12,
// value_info 13; NodeProto input 1, output 2, op_type 4, attribute 5; AttributeProto t 5; TensorProto int64_data 7,
// name 8, raw_data 9; ValueInfoProto type 2; TypeProto tensor_type 1; Tensor shape 2; TensorShapeProto dim 1;
// Dimension dim_value 1.

const inputsOf = (node: Field[]) => node.filter((f) => f.tag === 1).map((f) => f.value.toString());
const outputsOf = (node: Field[]) => node.filter((f) => f.tag === 2).map((f) => f.value.toString());

/** A graph input's or output's declared height and width (dims 2 and 3 of NCHW) divided by `factor`. */
const shrinkShape = (valueInfo: Buffer, factor: bigint) =>
  edit(valueInfo, 2, (type) =>
    edit(type, 1, (tensor) =>
      edit(tensor, 2, (shape) =>
        edit(shape, 1, (dim, index) => (index < 2 ? dim : edit(dim, 1, (value) => varint(readVarint(value, 0)[0] / factor)))),
      ),
    ),
  );

/** An int64 sizes tensor ([N, C, H, W], or the [H, W] a Concat appends to N and C) with H and W divided by `factor`. */
function shrinkSizes(tensor: Buffer, factor: bigint): Buffer {
  return encode(
    decode(tensor).map((f) => {
      if (f.tag === 9) {
        const raw = Buffer.from(f.value);
        const count = raw.length / 8;
        for (const i of [count - 2, count - 1]) raw.writeBigInt64LE(raw.readBigInt64LE(i * 8) / factor, i * 8);
        return { ...f, value: raw };
      }
      if (f.tag === 7 && f.wire === 2) {
        const values: bigint[] = [];
        for (let p = 0; p < f.value.length; ) {
          const [v, next] = readVarint(f.value, p);
          values.push(BigInt.asIntN(64, v));
          p = next;
        }
        for (const i of [values.length - 2, values.length - 1]) values[i] = (values[i] as bigint) / factor;
        return { ...f, value: Buffer.concat(values.map(varint)) };
      }
      return f;
    }),
  );
}

/** The model (ONNX bytes) made for a square input of `side` (1024 divided by a power of two). */
export function modelAtSide(model: Buffer, fromSide: number, side: number): Buffer {
  if (side === fromSide) return model;
  const ratio = fromSide / side;
  if (!Number.isInteger(ratio) || (ratio & (ratio - 1)) !== 0)
    throw new Error(`The model runs at ${fromSide} divided by a power of two, not ${side}`);
  const factor = BigInt(ratio);
  return edit(model, 7, (graph) => {
    const fields = decode(graph);
    const nodes = fields.filter((f) => f.tag === 1).map((f) => decode(f.value));
    const producer = new Map(nodes.flatMap((node) => outputsOf(node).map((name) => [name, node] as const)));
    // A Resize's sizes are a constant [N, C, H, W], or (in the unquantised export) a Concat of the input's own
    // N and C with a constant [H, W]: either way the constant is what changes.
    const sizes = new Set<string>();
    for (const node of nodes.filter((n) => text(n, 4) === 'Resize')) {
      const name = inputsOf(node)[3];
      if (!name) continue;
      const from = producer.get(name);
      if (from && text(from, 4) === 'Concat') for (const part of inputsOf(from).slice(1)) sizes.add(part);
      else sizes.add(name);
    }
    return encode(
      fields
        // The intermediate shapes are inferred again by the runtime; the recorded ones are the old side's.
        .filter((f) => f.tag !== 13)
        .map((f) => {
          if (f.tag === 11 || f.tag === 12) return { ...f, value: shrinkShape(f.value, factor) };
          if (f.tag === 5 && sizes.has(text(decode(f.value), 8) ?? '')) return { ...f, value: shrinkSizes(f.value, factor) };
          if (f.tag === 1) {
            const node = decode(f.value);
            if (text(node, 4) === 'Constant' && outputsOf(node).some((name) => sizes.has(name))) {
              return { ...f, value: edit(f.value, 5, (attribute) => edit(attribute, 5, (tensor) => shrinkSizes(tensor, factor))) };
            }
          }
          return f;
        }),
    );
  });
}
