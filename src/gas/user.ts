/**
 * Who an execution runs as. A user's id is a random id kept in their own user properties, made
 * the first time it is needed: per user and per script (in an add-on, the same in every
 * document), readable without any scope. It is not secret: the spreadsheet's copy of a schedule
 * names its owner by it. What makes a schedule or a run a user's is their own record of it
 * (./mine.ts). Their address comes from Apps Script only with the userinfo.email scope ('' without it).
 */
import type { Person } from '../import/spec';

const USER_ID = 'INVESTOR_DATA_USER_ID';

/** The address of the user this execution runs as ('' when Apps Script does not give it). */
export function currentUser(): string {
  try {
    return Session.getEffectiveUser().getEmail() ?? '';
  } catch {
    return '';
  }
}

/** The user this execution runs as. */
export function me(): Person {
  const props = PropertiesService.getUserProperties();
  let id = props.getProperty(USER_ID);
  if (!id) {
    id = Utilities.getUuid();
    props.setProperty(USER_ID, id);
  }
  return { id, email: currentUser() };
}
