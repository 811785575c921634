/**
 * Runs after every integration and e2e test file: kills every child dev/child.ts started for it
 * that is still starting or running (and whatever each started), so a start that outlived its
 * hook's timeout, or a child a failed test left, never keeps jest from exiting.
 */
import { stopChildren } from '../../dev/child';

afterAll(() => stopChildren());
