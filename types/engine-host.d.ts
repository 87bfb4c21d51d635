// The few host globals engine/ relies on, which Node and every browser provide: engine/ is
// checked without DOM or Node types (tsconfig.engine.json), so what it may use is listed here.

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare function btoa(data: string): string;
