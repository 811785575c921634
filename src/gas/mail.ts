/**
 * Mail for alerts, in Apps Script: MailApp's daily quota and one send (subject, plain and HTML
 * body, one recipient), the links an alert gives (the spreadsheet, its change log sheet), every
 * text cleared of the user's key before it leaves; and the address of the user an execution
 * runs as, which an alert records when saved (its only recipient).
 */
import type { MailPort } from '../import/ports';
import { CHANGE_LOG } from '../import/end';
import { knownSecrets } from './settings';
import { book, findSheet } from './sheets';

export function mailPort(): MailPort {
  return {
    remaining: () => MailApp.getRemainingDailyQuota(),
    send: (to, subject, htmlBody, body) => MailApp.sendEmail({ to, subject, htmlBody, body }),
    secrets: knownSecrets,
    links: () => {
      const url = book().getUrl();
      const log = findSheet(CHANGE_LOG);
      return { spreadsheet: url, changeLog: log ? `${url}#gid=${log.getSheetId()}` : url };
    },
  };
}

/** The address of the user this execution runs as ('' when Apps Script does not give it). */
export function currentUser(): string {
  try {
    return Session.getEffectiveUser().getEmail() ?? '';
  } catch {
    return '';
  }
}
