'use client';
import { LoupeApp } from './_containers/loupe-app.tsx';

export default function Page() {
  return <LoupeApp />;
}
