// A recall as plain text for people (alert e-mails, the digest, chat): hostile control and bidi characters never get through.
import { describe, expect, it } from 'vitest';
import { describeItem, plain } from '../../src/output/recall-text.js';
import { alertMail } from '../../src/actions/email-message.js';

describe('recall text', () => {
  it('drops terminal controls and bidi overrides from every field, line breaks become spaces', () => {
    const hostile = 'Kettle\u001b[31m red\u0007\u009b2J \u202eevil\u202c\u2066x\u2069\u200f\r\nnext';
    expect(plain({ t: hostile }, 't')).toBe('Kettle[31m red2J evilx next');
    const d = describeItem({ id: 5, alert_title: hostile, product_brand: 'Ac\u202eme', risk_severity: 'high\u0085' });
    expect(d.title).toBe('Kettle[31m red2J evilx next');
    expect(d.facts).toBe('severity: high · brand: Acme · id 5');
  });

  it('keeps the alert e-mail text free of them too', () => {
    const mail = alertMail([{ id: 1, alert_title: 'Lamp \u202eSI\u202c', risk_severity: 'low' }], 'recalls', 0);
    expect(mail.text).toContain('* Lamp SI\n');
    expect(mail.text).not.toMatch(/[\u001b\u202a-\u202e\u2066-\u2069]/);
  });
});
