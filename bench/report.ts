/**
 * Rewrites bench/RESULTS.md from bench/results/*.json without running anything, e.g. after
 * dropping in a result file written elsewhere.
 *   npm run bench:report
 */
import { writeReport } from './results.js';

writeReport();
