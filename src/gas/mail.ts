/**
 * Mail for alerts, in Apps Script: MailApp's daily quota and one send (subject, plain and HTML
 * body, one recipient), the links an alert gives (the spreadsheet, its change log sheet), every
 * text cleared of the user's key before it leaves.
 */
import type { MailPort } from '../import/ports';
import { CHANGE_LOG } from '../import/end';
import { granted, SCOPE } from './scopes';
import { knownSecrets } from './settings';
import { currentUser } from './user';
import { book, findSheet } from './sheets';

export function mailPort(): MailPort {
  return {
    off: () =>
      granted([SCOPE.sendMail])
        ? ''
        : `${currentUser() || 'the user running it'} has not allowed the add-in to send email as them (Allow alerts, in the sidebar).`,
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
