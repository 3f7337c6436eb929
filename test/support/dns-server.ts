import { type RemoteInfo, createSocket } from 'node:dgram';

/** Records by name (lowercase, no trailing dot), then by type. */
export type Zone = Record<string, { A?: string[]; AAAA?: string[]; CNAME?: string[]; MX?: { priority: number; exchange: string }[]; TXT?: string[] }>;

export interface DnsServer {
  /** `127.0.0.1:<port>`, as VIGIL_DNS_SERVERS and dns_resolver take it. */
  address: string;
  /** The names asked, in order, each as `<TYPE> <name>`. */
  asked: string[];
  zone: Zone;
  close: () => Promise<void>;
}

const TYPES: Record<number, keyof Zone[string]> = { 1: 'A', 5: 'CNAME', 15: 'MX', 16: 'TXT', 28: 'AAAA' };

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, an ephemeral port) answering A, AAAA, CNAME,
 * MX and TXT from `zone`, which a spec may change between checks: NXDOMAIN for a name it does not
 * hold, an empty answer for a type the name lacks.
 */
export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const { name, type, end } = readQuestion(query);
    const typeName = TYPES[type];
    asked.push(`${typeName ?? type} ${name}`);
    const records = zone[name.toLowerCase()];
    const answers = records && typeName ? encodeAnswers(typeName, records) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (records ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, end), ...answers]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    zone,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    const length = query[at]!;
    labels.push(query.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  return { name: labels.join('.'), type: query.readUInt16BE(at + 1), end: at + 5 };
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function encodeAnswers(type: keyof Zone[string], records: Zone[string]): Buffer[] {
  const code = Number(Object.entries(TYPES).find(([, name]) => name === type)![0]);
  const datas: Buffer[] = [];
  if (type === 'A') for (const address of records.A ?? []) datas.push(Buffer.from(address.split('.').map(Number)));
  if (type === 'AAAA') for (const address of records.AAAA ?? []) datas.push(ipv6Bytes(address));
  if (type === 'CNAME') for (const name of records.CNAME ?? []) datas.push(encodeName(name));
  if (type === 'MX') for (const mx of records.MX ?? []) datas.push(Buffer.concat([Buffer.from([mx.priority >> 8, mx.priority & 0xff]), encodeName(mx.exchange)]));
  if (type === 'TXT') for (const text of records.TXT ?? []) datas.push(Buffer.concat([Buffer.from([Buffer.byteLength(text)]), Buffer.from(text)]));
  return datas.map((data) => {
    const head = Buffer.alloc(12);
    head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    head.writeUInt16BE(code, 2);
    head.writeUInt16BE(1, 4);
    head.writeUInt32BE(60, 6);
    head.writeUInt16BE(data.length, 10);
    return Buffer.concat([head, data]);
  });
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const words = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const front = words(head);
  const back = words(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = Buffer.alloc(16);
  all.forEach((word, i) => bytes.writeUInt16BE(word, i * 2));
  return bytes;
}
