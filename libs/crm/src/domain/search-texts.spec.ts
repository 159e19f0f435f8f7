import {
  analysisSearchText,
  emailIsUntrusted,
  emailSearchText,
  messageIsUntrusted,
  taskSearchText,
  TRANSCRIPT_IS_UNTRUSTED,
} from './search-texts';

describe('search texts', () => {
  it('a task: the title, then the description on the next line when there is one', () => {
    expect(taskSearchText('Call back', 'About the garden flat')).toBe('Call back\nAbout the garden flat');
    expect(taskSearchText('Call back', null)).toBe('Call back');
    expect(taskSearchText('Call back', undefined)).toBe('Call back');
    expect(taskSearchText('Call back', '  ')).toBe('Call back');
  });

  it('an email: the subject, a blank line, the body; an empty part is left out', () => {
    expect(emailSearchText('About the flat', 'Is it still available?')).toBe(
      'About the flat\n\nIs it still available?',
    );
    expect(emailSearchText('', 'Only a body')).toBe('Only a body');
    expect(emailSearchText('Only a subject', '')).toBe('Only a subject');
    expect(emailSearchText('', '')).toBe('');
  });

  it('an analysis: summary, objections (topic and quote), next steps, coaching tips, one per line', () => {
    expect(
      analysisSearchText({
        summary: 'Wants a second viewing.',
        objections: [
          { topic: 'price', quote: 'A bit expensive' },
          { topic: 'location', quote: null },
          { topic: 'parking' },
        ],
        nextSteps: [{ text: 'Send the floor plan' }],
        coachingTips: [{ tip: 'Ask about financing earlier' }, { tip: '' }],
      }),
    ).toBe(
      [
        'Wants a second viewing.',
        'price: A bit expensive',
        'location',
        'parking',
        'Send the floor plan',
        'Ask about financing earlier',
      ].join('\n'),
    );
    expect(
      analysisSearchText({ summary: 'Short call.', objections: [], nextSteps: [], coachingTips: [] }),
    ).toBe('Short call.');
  });

  it('untrusted: inbound messages, inbound (captured) emails, transcripts', () => {
    expect(messageIsUntrusted('inbound')).toBe(true);
    expect(messageIsUntrusted('outbound')).toBe(false);
    expect(emailIsUntrusted('captured', 'inbound')).toBe(true);
    expect(emailIsUntrusted('captured', 'outbound')).toBe(false);
    // automated and manual emails are the agency's own, whatever a connector sent as direction
    expect(emailIsUntrusted('automated', 'inbound')).toBe(false);
    expect(emailIsUntrusted('manual', null)).toBe(false);
    expect(TRANSCRIPT_IS_UNTRUSTED).toBe(true);
  });
});
