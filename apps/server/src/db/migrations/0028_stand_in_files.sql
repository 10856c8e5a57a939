-- A file made by the sandbox's free stand-in, not a real model, says so wherever it is shown (decision "Stand-ins are free").
ALTER TABLE "files" ADD COLUMN "stand_in" boolean DEFAULT false NOT NULL;
