/** Help panel text: short answers to what families ask most. Policy numbers follow API.md. */
export const HELP_FAQ: { question: string; answer: string }[] = [
  {
    question: 'How do I book a session?',
    answer: 'Choose Book a session in My Bookings (or Book now in View Packages), pick a location, the type of session and a time, then choose your package and pay by card.',
  },
  {
    question: 'How long is my session held?',
    answer: 'Once you pick a time we hold it for 10 minutes while you finish. If you need more time, you can extend the hold twice.',
  },
  {
    question: 'Can I bring the whole family, or our dog?',
    answer: 'Yes. Choose a package that covers everyone in the photo. Pets are welcome at Pet Night sessions.',
  },
  {
    question: 'Is there a quieter session?',
    answer: 'Sensory-friendly sessions have softer lighting, no music and fewer people waiting.',
  },
];

export const HELP_POLICY: string[] = [
  'Reschedule up to 24 hours before your session, at most twice, at the same location.',
  'Cancel up to 48 hours before for a full refund. Later cancellations are not refunded.',
  'You can have up to 5 upcoming bookings at a time.',
  'Prices are in Australian dollars and include GST.',
];

export const HELP_CONTACT = {
  email: 'hello@kringle.test',
  hours: 'Monday to Saturday, 9 am to 5 pm (AEDT)',
};
