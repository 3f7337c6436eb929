import jmespath from 'jmespath';
import type { JsonOperator } from '../domain/monitors/monitor-config.js';

// The typings declare only `search`; `compile` parses without evaluating, to judge an expression.
// eslint-disable-next-line @typescript-eslint/unbound-method -- jmespath's functions do not use `this`
const { compile, search } = jmespath as typeof jmespath & { compile(expression: string): unknown };

/**
 * Why a JMESPath expression cannot be used, or null when it parses. JMESPath (the AWS CLI's
 * `--query` language) is a pure expression language: evaluating it never runs code.
 */
export function jsonQueryProblem(expression: string): string | null {
  try {
    compile(expression);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface JsonAssertion {
  query: string;
  operator: JsonOperator;
  /** Null only with `exists`. */
  expected: string | null;
}

/** A result as it is compared and shown: a string as it is, anything else as JSON. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'null');

/** Why a response body fails the assertion, as a person reads it; null when it passes. */
export function jsonAssertionFailure(body: string, assertion: JsonAssertion): string | null {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return 'the response is not JSON';
  }
  let result: unknown;
  try {
    result = search(document, assertion.query);
  } catch (error) {
    return `JSON query ${assertion.query} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const found = result ?? null;
  const expected = assertion.expected ?? '';
  const shown = found === null ? 'nothing' : JSON.stringify(textOf(found));
  const passes = ((): boolean => {
    switch (assertion.operator) {
      case 'exists':
        return found !== null;
      case 'equals':
        return found !== null && textOf(found) === expected;
      case 'not_equals':
        return found === null || textOf(found) !== expected;
      case 'contains':
        return Array.isArray(found) ? found.some((item) => textOf(item) === expected) : typeof found === 'string' && found.includes(expected);
      case 'greater_than':
      case 'less_than': {
        const [actual, limit] = [Number(found), Number(expected)];
        if (found === null || typeof found === 'boolean' || textOf(found).trim() === '' || !Number.isFinite(actual) || !Number.isFinite(limit)) return false;
        return assertion.operator === 'greater_than' ? actual > limit : actual < limit;
      }
      default: {
        const exhaustive: never = assertion.operator;
        return exhaustive;
      }
    }
  })();
  if (passes) return null;
  if (assertion.operator === 'exists') return `JSON query ${assertion.query} found nothing`;
  const wanted = { equals: '', not_equals: 'anything but ', contains: 'something containing ', greater_than: 'more than ', less_than: 'less than ' }[assertion.operator];
  return `JSON query ${assertion.query} returned ${shown}, expected ${wanted}${JSON.stringify(expected)}`;
}
