/** Tests start the reference service the same way the workbench and benchmarks do. */
export { DEMO_KEY, type RunningService, startService } from '../../dev/service/spawn';
