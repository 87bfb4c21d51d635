// Narrowing a session answer in a test: `ok` for a call that must succeed (its tool's result
// type), `err` for one that must fail (the error's code and message). Each fails the test with
// what came back instead.

import { type ErrorValue, isErrorValue } from '../../engine/session/errors.ts';

export function ok<T extends object>(r: T | ErrorValue): T {
  if (isErrorValue(r)) throw new Error(`expected a result, got ${r.error.code}: ${r.error.message}`);
  return r;
}

export function err(r: object): ErrorValue['error'] {
  if (!isErrorValue(r)) throw new Error(`expected an error value, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}
